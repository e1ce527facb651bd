import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { ACCOUNT_LABEL } from "../../../shared/core/constants";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { mswServer } from "../../testing/msw-server";
import { renderApp } from "../../testing/render-app";
import { findToast } from "../../testing/toasts";

/** The menu's button, once its lazy chunk has loaded (the first test in a run loads it cold). */
function findMenuButton() {
	return screen.findByRole("button", { name: "Account menu" }, { timeout: 10_000 });
}

async function openUserMenu(user: ReturnType<typeof renderApp>["user"]) {
	await user.click(await findMenuButton());
	return within(await screen.findByRole("menu"));
}

describe("UserMenu", () => {
	it("shows the user's initial, the e-mail's local part and the account label", async () => {
		startFakeAuthServer({ signedInAs: createTestUser({ email: "jane.doe@example.com" }) });
		const { user } = renderApp({ path: "/" });

		const trigger = await findMenuButton();
		expect(trigger).toHaveTextContent("J");

		const menu = await openUserMenu(user);
		expect(menu.getByText("J")).toBeVisible();
		expect(menu.getByText("jane.doe")).toBeVisible();
		expect(menu.queryByText("jane.doe@example.com")).not.toBeInTheDocument();
		expect(menu.getByText(ACCOUNT_LABEL)).toHaveTextContent("Free Account");
		expect(menu.getByRole("menuitem", { name: "Sign Out" })).toBeVisible();
	});

	it("asks before signing out, and Cancel keeps you signed in", async () => {
		const server = startFakeAuthServer({ signedInAs: createTestUser() });
		const { user, readLocation } = renderApp({ path: "/generations" });
		await screen.findByRole("heading", { level: 1, name: "Saved Generations" });

		const menu = await openUserMenu(user);
		await user.click(menu.getByRole("menuitem", { name: "Sign Out" }));

		const dialog = within(await screen.findByRole("alertdialog", { name: "Sign out?" }));
		await user.click(dialog.getByRole("button", { name: "Cancel" }));

		await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
		expect(server.readRequests("/api/auth/sign-out")).toHaveLength(0);
		expect(screen.getByRole("button", { name: "Account menu" })).toBeVisible();
		expect(screen.getByRole("heading", { level: 1, name: "Saved Generations" })).toBeVisible();
		expect(readLocation()).toBe("/generations");
	});

	it("signs out on confirmation and goes to /", async () => {
		const server = startFakeAuthServer({ signedInAs: createTestUser() });
		const { user, readLocation } = renderApp({ path: "/generations" });
		await screen.findByRole("heading", { level: 1, name: "Saved Generations" });

		const menu = await openUserMenu(user);
		await user.click(menu.getByRole("menuitem", { name: "Sign Out" }));
		const dialog = within(await screen.findByRole("alertdialog", { name: "Sign out?" }));
		await user.click(dialog.getByRole("button", { name: "Sign Out" }));

		expect(await screen.findByRole("link", { name: "Sign In" })).toBeVisible();
		expect(screen.getByRole("heading", { level: 1, name: "Create with Atelier" })).toBeVisible();
		expect(readLocation()).toBe("/");
		expect(server.readRequests("/api/auth/sign-out")).toHaveLength(1);
		expect(server.readCurrentUser()).toBeNull();
		expect(screen.queryByRole("button", { name: "Account menu" })).not.toBeInTheDocument();
	});

	it("stays signed in and says so when the server cannot sign out", async () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		mswServer.use(http.post("*/api/auth/sign-out", () => new HttpResponse(null, { status: 500 })));
		const { user } = renderApp({ path: "/" });

		const menu = await openUserMenu(user);
		await user.click(menu.getByRole("menuitem", { name: "Sign Out" }));
		const dialog = within(await screen.findByRole("alertdialog", { name: "Sign out?" }));
		await user.click(dialog.getByRole("button", { name: "Sign Out" }));

		expect(await findToast("Sign out failed. Please try again.")).toBeVisible();
		expect(screen.getByRole("button", { name: "Account menu" })).toBeVisible();
		expect(screen.queryByRole("link", { name: "Sign In" })).not.toBeInTheDocument();
	});
});
