import { screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import { ERRORS } from "../../../shared/core/errors";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { mswServer } from "../../testing/msw-server";
import { renderApp } from "../../testing/render-app";

async function renderLoginPage(path = "/login") {
	const app = renderApp({ path });
	await screen.findByRole("heading", { level: 1, name: "Welcome back" });
	return app;
}

describe("LoginPage", () => {
	afterEach(() => {
		// The Google test follows a same-document redirect; put the page URL back.
		window.history.replaceState(null, "", "/");
	});

	it("has required e-mail and password fields, Sign In, Continue with Google and Sign up", async () => {
		startFakeAuthServer();
		await renderLoginPage();

		const email = screen.getByLabelText("Email");
		expect(email).toHaveAttribute("type", "email");
		expect(email).toBeRequired();
		expect(screen.getByLabelText("Password")).toBeRequired();
		expect(screen.getByRole("button", { name: "Sign In" })).toHaveAttribute("type", "submit");
		expect(screen.getByRole("button", { name: "Continue with Google" })).toBeVisible();
		expect(screen.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");
	});

	it("shows and hides the password", async () => {
		startFakeAuthServer();
		const { user } = await renderLoginPage();
		const password = screen.getByLabelText("Password");
		expect(password).toHaveAttribute("type", "password");

		await user.click(screen.getByRole("button", { name: "Show password" }));
		expect(password).toHaveAttribute("type", "text");

		await user.click(screen.getByRole("button", { name: "Hide password" }));
		expect(password).toHaveAttribute("type", "password");
	});

	it("signs in and goes to /, where the header shows the user", async () => {
		const account = createTestUser();
		const server = startFakeAuthServer({ accounts: [account] });
		const { user, readLocation } = await renderLoginPage();

		await user.type(screen.getByLabelText("Email"), account.email);
		await user.type(screen.getByLabelText("Password"), account.password);
		await user.click(screen.getByRole("button", { name: "Sign In" }));

		expect(
			await screen.findByRole("heading", { level: 1, name: "Create with Atelier" }),
		).toBeVisible();
		expect(readLocation()).toBe("/");
		expect(
			within(screen.getByRole("banner")).getByRole("link", { name: /View Generations/ }),
		).toBeVisible();
		expect(server.readRequests("/api/auth/sign-in/email")[0]?.body).toEqual({
			email: account.email,
			password: account.password,
		});
	});

	it("shows the server's message when sign-in fails", async () => {
		startFakeAuthServer({ accounts: [createTestUser({ email: "jane@example.com" })] });
		const { user, readLocation } = await renderLoginPage();

		await user.type(screen.getByLabelText("Email"), "jane@example.com");
		await user.type(screen.getByLabelText("Password"), "wrong password");
		await user.click(screen.getByRole("button", { name: "Sign In" }));

		expect(await screen.findByText("Invalid email or password")).toBeVisible();
		expect(screen.getByRole("alert")).toHaveTextContent("Invalid email or password");
		expect(readLocation()).toBe("/login");
		expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
	});

	it("shows Login failed when the server gives no message", async () => {
		startFakeAuthServer();
		mswServer.use(
			http.post("*/api/auth/sign-in/email", () => new HttpResponse(null, { status: 500 })),
		);
		const { user } = await renderLoginPage();

		await user.type(screen.getByLabelText("Email"), "jane@example.com");
		await user.type(screen.getByLabelText("Password"), "whatever");
		await user.click(screen.getByRole("button", { name: "Sign In" }));

		expect(await screen.findByText("Login failed")).toBeVisible();
	});

	it("shows Login failed when the server cannot be reached", async () => {
		startFakeAuthServer();
		mswServer.use(http.post("*/api/auth/sign-in/email", () => HttpResponse.error()));
		const { user } = await renderLoginPage();

		await user.type(screen.getByLabelText("Email"), "jane@example.com");
		await user.type(screen.getByLabelText("Password"), "whatever");
		await user.click(screen.getByRole("button", { name: "Sign In" }));

		expect(await screen.findByText("Login failed")).toBeVisible();
	});

	it("says why Google sign-in failed when Google is not configured", async () => {
		startFakeAuthServer({ isGoogleConfigured: false });
		const { user, readLocation } = await renderLoginPage();

		await user.click(screen.getByRole("button", { name: "Continue with Google" }));

		expect(
			await screen.findByText(`Google sign-in failed: ${ERRORS.GOOGLE_NOT_CONFIGURED.message}`),
		).toBeVisible();
		expect(readLocation()).toBe("/login");
		expect(window.location.hash).toBe("");
	});

	it("shows Google sign-in failed alone when the server gives no reason", async () => {
		startFakeAuthServer();
		mswServer.use(
			http.post("*/api/auth/sign-in/social", () => new HttpResponse(null, { status: 502 })),
		);
		const { user } = await renderLoginPage();

		await user.click(screen.getByRole("button", { name: "Continue with Google" }));

		expect(await screen.findByText("Google sign-in failed")).toBeVisible();
	});

	it("asks the server for Google and follows the URL it answers with", async () => {
		const server = startFakeAuthServer({ isGoogleConfigured: true });
		const { user } = await renderLoginPage();

		await user.click(screen.getByRole("button", { name: "Continue with Google" }));

		await expect.poll(() => window.location.hash).toBe("#google-consent");
		expect(server.readRequests("/api/auth/sign-in/social")[0]?.body).toEqual({
			provider: "google",
			callbackURL: "/",
			errorCallbackURL: "/login",
		});
	});

	it("shows why Google sign-in failed when the provider sends the user back with an error", async () => {
		startFakeAuthServer();
		await renderLoginPage("/login?error=access_denied");

		expect(
			screen.getByText("Google sign-in failed: Access was denied or the sign-in was cancelled."),
		).toBeVisible();
	});

	it("never shows free text from the URL as the reason", async () => {
		startFakeAuthServer();
		await renderLoginPage("/login?error=Call%20555-0100%20to%20unlock");

		expect(screen.getByText("Google sign-in failed: Please try again.")).toBeVisible();
		expect(screen.queryByText(/555-0100/)).not.toBeInTheDocument();
	});
});
