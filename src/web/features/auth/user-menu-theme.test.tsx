import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import { THEME_STORAGE_KEY } from "../../../shared/account/theme";
import { errorBody } from "../../../shared/core/errors";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { mswServer } from "../../testing/msw-server";
import { renderApp } from "../../testing/render-app";
import { findToast } from "../../testing/toasts";

async function openUserMenu(user: ReturnType<typeof renderApp>["user"]) {
	// The menu is a lazy chunk: its first import in a test file, on a loaded machine, takes a while.
	await user.click(
		await screen.findByRole("button", { name: "Account menu" }, { timeout: 10_000 }),
	);
	return within(await screen.findByRole("menu"));
}

function readPaintedTheme() {
	return document.documentElement.dataset.theme;
}

describe("the user menu's theme", () => {
	afterEach(() => {
		localStorage.clear();
		delete document.documentElement.dataset.theme;
	});

	it("offers System, Light and Dark, and a choice paints at once, stays on this device and goes to the account", async () => {
		const server = startFakeAuthServer({ signedInAs: createTestUser() });
		const { user } = renderApp({ path: "/" });

		const menu = await openUserMenu(user);
		expect(menu.getByText("Theme")).toBeVisible();
		const system = menu.getByRole("menuitemradio", { name: "System" });
		await waitFor(() => expect(system).toHaveAttribute("aria-checked", "true"));
		expect(menu.getByRole("menuitemradio", { name: "Light" })).toHaveAttribute(
			"aria-checked",
			"false",
		);

		await user.click(menu.getByRole("menuitemradio", { name: "Dark" }));
		expect(readPaintedTheme()).toBe("dark");
		expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
		// The menu stays open on the choice made.
		expect(menu.getByRole("menuitemradio", { name: "Dark" })).toHaveAttribute(
			"aria-checked",
			"true",
		);
		await waitFor(() => expect(server.readCurrentUser()?.theme).toBe("dark"));
		expect(
			server.readRequests("/api/account/settings").filter(({ method }) => method === "PATCH"),
		).toEqual([{ method: "PATCH", path: "/api/account/settings", body: { theme: "dark" } }]);

		// System again: the system's scheme (light here), and nothing kept on the device.
		await user.click(menu.getByRole("menuitemradio", { name: "System" }));
		expect(readPaintedTheme()).toBe("light");
		expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
		await waitFor(() => expect(server.readCurrentUser()?.theme).toBe("system"));
	});

	it("paints in the account's theme once signed in, and keeps it on this device for the next first paint", async () => {
		startFakeAuthServer({ signedInAs: createTestUser({ theme: "dark" }) });
		localStorage.setItem(THEME_STORAGE_KEY, "light");
		renderApp({ path: "/" });

		await waitFor(() => expect(readPaintedTheme()).toBe("dark"), { timeout: 10_000 });
		expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
	});

	it("marks the choice another tab made", async () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		const { user } = renderApp({ path: "/" });
		const menu = await openUserMenu(user);
		await waitFor(() =>
			expect(menu.getByRole("menuitemradio", { name: "System" })).toHaveAttribute(
				"aria-checked",
				"true",
			),
		);

		localStorage.setItem(THEME_STORAGE_KEY, "dark");
		window.dispatchEvent(new StorageEvent("storage", { key: THEME_STORAGE_KEY, newValue: "dark" }));
		await waitFor(() =>
			expect(menu.getByRole("menuitemradio", { name: "Dark" })).toHaveAttribute(
				"aria-checked",
				"true",
			),
		);
	});

	it("says so when the account cannot keep the choice, which this device still keeps", async () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		mswServer.use(
			http.patch("*/api/account/settings", () =>
				HttpResponse.json(
					{ success: false, error: errorBody("SERVICE_UNAVAILABLE") },
					{ status: 503 },
				),
			),
		);
		const { user } = renderApp({ path: "/" });

		const menu = await openUserMenu(user);
		await user.click(menu.getByRole("menuitemradio", { name: "Light" }));
		expect(readPaintedTheme()).toBe("light");
		expect(await findToast(errorBody("SERVICE_UNAVAILABLE").message)).toBeVisible();
		expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
	});
});
