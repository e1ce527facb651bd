import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { API_TOKEN_LIMIT_MESSAGE, MAX_ACTIVE_API_TOKENS } from "../../../shared/account/api-tokens";
import {
	createTestApiToken,
	startFakeApiTokensServer,
} from "../../testing/fakes/fake-api-tokens-server";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { renderWithProviders } from "../../testing/render-app";
import { ApiTokensSection } from "./api-tokens-section";

function renderSection() {
	startFakeAuthServer({ signedInAs: createTestUser() });
	return renderWithProviders(<ApiTokensSection />);
}

describe("the account page's API tokens", () => {
	it("lists each token's name, scopes, creation, last use and expiry", async () => {
		startFakeApiTokensServer({
			tokens: [
				createTestApiToken({
					name: "Nightly bot",
					scopes: ["read", "delete"],
					createdAt: "2025-01-05T09:00:00.000Z",
					lastUsedAt: "2025-01-06T10:00:00.000Z",
					expiresAt: "2025-04-05T09:00:00.000Z",
				}),
				createTestApiToken({ name: "Old script", scopes: ["generate"] }),
			],
		});
		renderSection();
		const list = await screen.findByRole("list", { name: "Your API tokens" });
		const [nightly, old] = within(list).getAllByRole("listitem");
		expect(nightly).toHaveTextContent("Nightly bot");
		expect(nightly).toHaveTextContent("readdelete");
		expect(nightly).toHaveTextContent(
			/Created Jan 5, 2025.*last used Jan 6, 2025.*expires Apr 5, 2025/,
		);
		expect(old).toHaveTextContent(/never used · never expires/);
	});

	it("creates a token with the chosen scopes and expiry, and shows it once with a copy button", async () => {
		const server = startFakeApiTokensServer();
		const { user } = renderSection();
		await screen.findByText("You have no API tokens.");

		await user.type(screen.getByRole("textbox", { name: "Name" }), "Deploy hook");
		await user.click(screen.getByRole("checkbox", { name: /^read/ }));
		await user.click(screen.getByRole("checkbox", { name: /^delete/ }));
		await user.selectOptions(screen.getByRole("combobox", { name: "Expires" }), "Never");
		await user.click(screen.getByRole("button", { name: "Create token" }));

		const shown = await screen.findByRole("textbox", { name: "New API token" });
		const [created] = server.readCreated();
		expect(created).toMatchObject({
			name: "Deploy hook",
			scopes: ["generate", "delete"],
			expiresAt: null,
		});
		expect(shown).toHaveValue(created?.token);
		expect(screen.getByText(/it will not be shown again/)).toBeVisible();

		await user.click(screen.getByRole("button", { name: "Copy" }));
		expect(await navigator.clipboard.readText()).toBe(created?.token);
		expect(screen.getByRole("button", { name: "Copied" })).toBeVisible();

		await user.click(screen.getByRole("button", { name: "Done" }));
		expect(screen.queryByRole("textbox", { name: "New API token" })).not.toBeInTheDocument();
		const list = await screen.findByRole("list", { name: "Your API tokens" });
		expect(list).toHaveTextContent("Deploy hook");
		expect(list).not.toHaveTextContent(created?.token ?? "missing");
	});

	it("shows the server's refusal and keeps the form", async () => {
		startFakeApiTokensServer({ failure: "VALIDATION_ERROR" });
		const { user } = renderSection();
		await user.type(await screen.findByRole("textbox", { name: "Name" }), "Bot");
		await user.click(screen.getByRole("button", { name: "Create token" }));
		expect(
			await screen.findByText("Invalid input. Please check your data and try again."),
		).toBeVisible();
		expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("Bot");
	});

	it("revokes a token only after asking", async () => {
		const token = createTestApiToken({ name: "Leaked token" });
		const server = startFakeApiTokensServer({ tokens: [token] });
		const { user } = renderSection();

		await user.click(await screen.findByRole("button", { name: "Revoke Leaked token" }));
		const dialog = await screen.findByRole("alertdialog", { name: "Revoke “Leaked token”?" });
		await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
		expect(server.readRevoked()).toEqual([]);

		await user.click(await screen.findByRole("button", { name: "Revoke Leaked token" }));
		await user.click(
			within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Revoke" }),
		);
		await waitFor(() => expect(server.readRevoked()).toEqual([token.id]));
		expect(await screen.findByText("You have no API tokens.")).toBeVisible();
	});

	it("says a token reaches only its owner's generations, and how many there may be", async () => {
		startFakeApiTokensServer();
		renderSection();
		await screen.findByText("You have no API tokens.");
		expect(
			screen.getByText(
				/A token reaches only your own generations, within its scopes, even the administrator's/,
			),
		).toHaveTextContent(`Up to ${MAX_ACTIVE_API_TOKENS} tokens that have not expired`);
	});

	it("shows the limit instead of the form once every place is taken, and the form again after a revoke", async () => {
		const tokens = Array.from({ length: MAX_ACTIVE_API_TOKENS }, (_, index) =>
			createTestApiToken({ name: `Bot ${index}` }),
		);
		// An expired token does not count.
		tokens.push(createTestApiToken({ name: "Old", expiresAt: "2020-01-01T00:00:00.000Z" }));
		startFakeApiTokensServer({ tokens });
		const { user } = renderSection();
		expect(await screen.findByText(API_TOKEN_LIMIT_MESSAGE)).toBeVisible();
		expect(screen.queryByRole("button", { name: "Create token" })).not.toBeInTheDocument();

		await user.click(screen.getByRole("button", { name: "Revoke Bot 0" }));
		await user.click(
			within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Revoke" }),
		);
		expect(await screen.findByRole("button", { name: "Create token" })).toBeVisible();
		expect(screen.queryByText(API_TOKEN_LIMIT_MESSAGE)).not.toBeInTheDocument();
	});
});
