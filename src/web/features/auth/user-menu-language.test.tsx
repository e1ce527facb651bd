import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { renderApp } from "../../testing/render-app";

async function openUserMenu(user: ReturnType<typeof renderApp>["user"]) {
	await user.click(
		await screen.findByRole("button", { name: "Account menu" }, { timeout: 10_000 }),
	);
	return within(await screen.findByRole("menu"));
}

function readLanguageCookie(): string | undefined {
	return /(?:^|;\s*)atelier-language=([^;]*)/.exec(document.cookie)?.[1];
}

describe("the user menu's language", () => {
	afterEach(() => {
		// biome-ignore lint/suspicious/noDocumentCookie: as the menu writes it (lib/account/language-choice.ts).
		document.cookie = "atelier-language=; path=/; max-age=0";
	});

	it("offers the browser's language, English and Deutsch, and a choice goes to the account and this browser", async () => {
		const server = startFakeAuthServer({ signedInAs: createTestUser() });
		const { user } = renderApp({ path: "/" });

		const menu = await openUserMenu(user);
		expect(menu.getByText("Language")).toBeVisible();
		await waitFor(() =>
			expect(menu.getByRole("menuitemradio", { name: "Browser's language" })).toHaveAttribute(
				"aria-checked",
				"true",
			),
		);
		expect(menu.getByRole("menuitemradio", { name: "Deutsch" })).toHaveAttribute("lang", "de");

		await user.click(menu.getByRole("menuitemradio", { name: "Deutsch" }));
		await waitFor(() => expect(server.readCurrentUser()?.language).toBe("de"));
		expect(
			server.readRequests("/api/account/settings").filter(({ method }) => method === "PATCH"),
		).toEqual([{ method: "PATCH", path: "/api/account/settings", body: { language: "de" } }]);
		// The server writes the next page in it.
		await waitFor(() => expect(readLanguageCookie()).toBe("de"));
	});

	it("keeps the account's language in this browser once signed in", async () => {
		startFakeAuthServer({ signedInAs: createTestUser({ language: "de" }) });
		renderApp({ path: "/" });
		await waitFor(() => expect(readLanguageCookie()).toBe("de"), { timeout: 10_000 });
	});
});
