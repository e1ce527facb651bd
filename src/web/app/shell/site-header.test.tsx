import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ERRORS } from "../../../shared/core/errors";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { renderApp } from "../../testing/render-app";
import { findToast } from "../../testing/toasts";

async function findHeader() {
	await screen.findByRole("heading", { level: 1 });
	return within(screen.getByRole("banner"));
}

describe("SiteHeader", () => {
	it("offers Sign In and Google sign-in to a signed-out visitor", async () => {
		startFakeAuthServer();
		const { user, readLocation } = renderApp({ path: "/" });
		const header = await findHeader();

		const signIn = await header.findByRole("link", { name: "Sign In" });
		expect(signIn).toHaveAttribute("href", "/login");
		expect(header.getByRole("button", { name: "Sign in with Google" })).toBeVisible();
		expect(header.queryByRole("link", { name: /View Generations/ })).not.toBeInTheDocument();
		expect(header.queryByRole("button", { name: "Account menu" })).not.toBeInTheDocument();

		await user.click(signIn);
		await waitFor(() => expect(readLocation()).toBe("/login"));
	});

	it("offers View Generations and the user menu to a signed-in user", async () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		const { user, readLocation } = renderApp({ path: "/" });
		const header = await findHeader();

		const viewGenerations = await header.findByRole("link", { name: /View Generations/ });
		expect(viewGenerations).toHaveAttribute("href", "/generations");
		expect(viewGenerations).toHaveTextContent("gallery");
		expect(await header.findByRole("button", { name: "Account menu" })).toBeVisible();
		expect(header.queryByRole("link", { name: "Sign In" })).not.toBeInTheDocument();
		expect(header.queryByRole("button", { name: "Sign in with Google" })).not.toBeInTheDocument();
		expect(header.queryByText("Admin")).not.toBeInTheDocument();

		await user.click(viewGenerations);
		expect(
			await screen.findByRole(
				"heading",
				{ level: 1, name: "Saved Generations" },
				{ timeout: 10_000 },
			),
		).toBeVisible();
		expect(readLocation()).toBe("/generations");
	});

	it("shows the Admin badge to the admin", async () => {
		startFakeAuthServer({ signedInAs: createTestUser({ isAdmin: true }) });
		renderApp({ path: "/" });
		const header = await findHeader();

		expect(await header.findByText("Admin")).toBeVisible();
	});

	it("takes you home with the Atelier title button", async () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		const { user, readLocation } = renderApp({ path: "/generations" });
		await screen.findByRole("heading", { level: 1, name: "Saved Generations" });

		await user.click(within(screen.getByRole("banner")).getByRole("button", { name: "Atelier" }));

		expect(
			await screen.findByRole("heading", { level: 1, name: "Create with Atelier" }),
		).toBeVisible();
		expect(readLocation()).toBe("/");
	});

	it("tells why Google sign-in failed in a toast when Google is not configured", async () => {
		startFakeAuthServer({ isGoogleConfigured: false });
		const { user } = renderApp({ path: "/" });
		const header = await findHeader();

		await user.click(await header.findByRole("button", { name: "Sign in with Google" }));

		expect(
			await findToast(`Google sign-in failed: ${ERRORS.GOOGLE_NOT_CONFIGURED.message}`),
		).toBeVisible();
		expect(header.getByRole("button", { name: "Sign in with Google" })).toBeEnabled();
	});
});
