import { screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { mswServer } from "../../testing/msw-server";
import { renderApp } from "../../testing/render-app";

async function renderSignupPage() {
	const app = renderApp({ path: "/signup" });
	await screen.findByRole("heading", { level: 1, name: "Create your account" });
	return app;
}

type FormValues = { email: string; password: string; confirmation: string };

async function fillSignupForm(
	user: Awaited<ReturnType<typeof renderSignupPage>>["user"],
	{ email, password, confirmation }: FormValues,
) {
	await user.type(screen.getByLabelText("Email"), email);
	await user.type(screen.getByLabelText("Password"), password);
	await user.type(screen.getByLabelText("Confirm password"), confirmation);
	await user.click(screen.getByRole("button", { name: "Sign Up" }));
}

describe("SignupPage", () => {
	it("has e-mail, password and confirmation fields, Sign Up and a Sign in link", async () => {
		startFakeAuthServer();
		await renderSignupPage();

		const email = screen.getByLabelText("Email");
		expect(email).toHaveAttribute("type", "email");
		expect(email).toBeRequired();
		expect(screen.getByLabelText("Password")).toBeRequired();
		expect(screen.getByLabelText("Confirm password")).toHaveAttribute("type", "password");
		expect(screen.getByRole("button", { name: "Sign Up" })).toHaveAttribute("type", "submit");
		expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
	});

	it("says Passwords do not match, without asking the server", async () => {
		const server = startFakeAuthServer();
		const { user } = await renderSignupPage();

		await fillSignupForm(user, {
			email: "new@example.com",
			password: "secret-one",
			confirmation: "secret-two",
		});

		expect(await screen.findByText("Passwords do not match")).toBeVisible();
		expect(server.readRequests("/api/auth/sign-up/email")).toHaveLength(0);
	});

	it("says the password is too short, without asking the server", async () => {
		const server = startFakeAuthServer();
		const { user } = await renderSignupPage();

		await fillSignupForm(user, {
			email: "new@example.com",
			password: "abc12",
			confirmation: "abc12",
		});

		expect(await screen.findByText("Password must be at least 6 characters")).toBeVisible();
		expect(server.readRequests("/api/auth/sign-up/email")).toHaveLength(0);
	});

	it("shows the server's message when signup fails", async () => {
		const existing = createTestUser({ email: "taken@example.com" });
		startFakeAuthServer({ accounts: [existing] });
		const { user, readLocation } = await renderSignupPage();

		await fillSignupForm(user, {
			email: "taken@example.com",
			password: "secret-one",
			confirmation: "secret-one",
		});

		expect(await screen.findByText("User already exists. Use another email.")).toBeVisible();
		expect(readLocation()).toBe("/signup");
	});

	it("shows Signup failed when the server gives no message", async () => {
		startFakeAuthServer();
		mswServer.use(
			http.post("*/api/auth/sign-up/email", () => new HttpResponse(null, { status: 500 })),
		);
		const { user } = await renderSignupPage();

		await fillSignupForm(user, {
			email: "new@example.com",
			password: "secret-one",
			confirmation: "secret-one",
		});

		expect(await screen.findByText("Signup failed")).toBeVisible();
	});

	it("signs up with the e-mail's local part as name, is signed in and goes to /", async () => {
		const server = startFakeAuthServer();
		const { user, readLocation } = await renderSignupPage();

		await fillSignupForm(user, {
			email: "new.artist@example.com",
			password: "secret-one",
			confirmation: "secret-one",
		});

		expect(
			await screen.findByRole("heading", { level: 1, name: "Create with Atelier" }),
		).toBeVisible();
		expect(readLocation()).toBe("/");
		expect(await screen.findByRole("button", { name: "Account menu" })).toBeVisible();
		expect(server.readRequests("/api/auth/sign-up/email")[0]?.body).toEqual({
			email: "new.artist@example.com",
			password: "secret-one",
			name: "new.artist",
		});
	});
});
