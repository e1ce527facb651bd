import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_ACTIVE_API_TOKENS } from "../../../shared/account/api-tokens";
import { registerCatalogue, setActiveLanguage } from "../../../shared/i18n/runtime";
import de from "../../../shared/i18n/translations/de";
import {
	createTestApiToken,
	startFakeApiTokensServer,
} from "../../testing/fakes/fake-api-tokens-server";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import {
	createLighthouseImageShare,
	createTestShare,
	startFakeSharesServer,
} from "../../testing/fakes/fake-shares-server";
import { startFakeWebhooksApi } from "../../testing/fakes/fake-webhooks-api";
import { renderWithProviders } from "../../testing/render-app";
import { ApiTokensSection } from "./api-tokens-section";
import { SharedLinksSection } from "./shared-links-section";
import { WebhooksSection } from "./webhooks-section";

describe("the account's sections on a German page", () => {
	beforeEach(() => {
		registerCatalogue("de", de);
		setActiveLanguage("de");
		startFakeAuthServer({ signedInAs: createTestUser() });
	});
	afterEach(() => {
		setActiveLanguage("en");
	});

	it("lists API tokens with German dates, says what they reach and revokes one after asking", async () => {
		const server = startFakeApiTokensServer({
			tokens: [
				createTestApiToken({
					name: "Nightly bot",
					scopes: ["read"],
					createdAt: "2025-01-05T09:00:00.000Z",
					lastUsedAt: null,
					expiresAt: "2025-04-05T09:00:00.000Z",
				}),
			],
		});
		const { user } = renderWithProviders(<ApiTokensSection />);

		const list = await screen.findByRole("list", { name: "Deine API-Tokens" });
		expect(within(list).getByRole("listitem")).toHaveTextContent(
			/Erstellt am 5\. Jan\. 2025.* · nie genutzt · läuft am 5\. Apr\. 2025.* ab/,
		);
		const description = screen.getByText(/Lass Skripte und andere Apps mit/);
		expect(description).toHaveTextContent(
			`Bis zu ${MAX_ACTIVE_API_TOKENS} Tokens, die nicht abgelaufen sind. Mehr in der API-Referenz.`,
		);
		expect(within(description).getByText("Authorization: Bearer <token>").tagName).toBe("CODE");
		expect(within(description).getByRole("link", { name: "API-Referenz" })).toHaveAttribute(
			"href",
			"/api/docs",
		);

		await user.click(screen.getByRole("button", { name: "Nightly bot widerrufen" }));
		const dialog = await screen.findByRole("alertdialog", { name: "„Nightly bot“ widerrufen?" });
		expect(dialog).toHaveTextContent(
			"Skripte und Apps mit diesem Token werden ab jetzt abgewiesen. Das lässt sich nicht rückgängig machen.",
		);
		await user.click(within(dialog).getByRole("button", { name: "Widerrufen" }));
		await waitFor(() => expect(server.readRevoked()).toHaveLength(1));
		expect(await screen.findByText("Du hast keine API-Tokens.")).toBeVisible();
	});

	it("makes an API token with German scopes and lifetimes and shows it once, in German", async () => {
		const server = startFakeApiTokensServer();
		const { user } = renderWithProviders(<ApiTokensSection />);
		const form = await screen.findByRole("form", { name: "API-Token erstellen" });
		// The scope's name is the API's; what it allows is in German.
		expect(
			within(form).getByRole("checkbox", { name: /^delete\W+Generierungen löschen$/ }),
		).not.toBeChecked();
		const expiry = within(form).getByRole("combobox", { name: "Läuft ab" });
		expect(
			within(expiry)
				.getAllByRole("option")
				.map((option) => option.textContent),
		).toEqual(["In 30 Tagen", "In 90 Tagen", "In 365 Tagen", "Nie"]);
		await user.type(within(form).getByRole("textbox", { name: "Name" }), "Deploy hook");
		await user.click(within(form).getByRole("button", { name: "Token erstellen" }));

		expect(
			await screen.findByText(
				"Dein Token „Deploy hook“. Kopiere es jetzt: Es wird nicht noch einmal angezeigt.",
			),
		).toBeVisible();
		expect(screen.getByRole("textbox", { name: "Neues API-Token" })).toHaveValue(
			server.readCreated()[0]?.token,
		);
		await user.click(screen.getByRole("button", { name: "Kopieren" }));
		expect(await screen.findByRole("button", { name: "Kopiert" })).toBeVisible();
		await user.click(screen.getByRole("button", { name: "Fertig" }));
		expect(await screen.findByRole("list", { name: "Deine API-Tokens" })).toHaveTextContent(
			"Deploy hook",
		);
	});

	it("says the token limit in German once every place is taken", async () => {
		startFakeApiTokensServer({
			tokens: Array.from({ length: MAX_ACTIVE_API_TOKENS }, () => createTestApiToken()),
		});
		renderWithProviders(<ApiTokensSection />);
		expect(
			await screen.findByText(
				`Du hast ${MAX_ACTIVE_API_TOKENS} aktive API-Tokens, mehr erlaubt ein Konto nicht. Widerrufe eines, um ein neues zu erstellen.`,
			),
		).toBeVisible();
	});

	it("adds a webhook after asking for an event and shows its signing secret once, in German", async () => {
		startFakeWebhooksApi({ testStatusCode: 204 });
		const { user } = renderWithProviders(<WebhooksSection />);

		expect(await screen.findByText("Noch keine Endpunkte.")).toBeVisible();
		for (const event of ["generation.completed", "generation.failed", "generation.deleted"]) {
			await user.click(screen.getByRole("checkbox", { name: event }));
		}
		await user.type(screen.getByLabelText("URL des Endpunkts"), "https://hooks.example.com/a");
		await user.click(screen.getByRole("button", { name: "Endpunkt hinzufügen" }));
		expect(await screen.findByText("Wähle mindestens ein Ereignis.")).toBeVisible();

		await user.click(screen.getByRole("checkbox", { name: "generation.completed" }));
		await user.click(screen.getByRole("button", { name: "Endpunkt hinzufügen" }));
		expect(await screen.findByLabelText("Signaturgeheimnis")).toBeVisible();
		expect(screen.getByText(/Es wird nicht noch einmal angezeigt/)).toBeVisible();
		await user.click(screen.getByRole("button", { name: "Fertig" }));
		expect(await screen.findByRole("list", { name: "Webhook-Endpunkte" })).toBeVisible();
	});

	it("logs a webhook's test delivery and deletes the endpoint after asking, in German", async () => {
		startFakeWebhooksApi({ testStatusCode: 204 });
		const { user } = renderWithProviders(<WebhooksSection />);
		await user.type(
			await screen.findByLabelText("URL des Endpunkts"),
			"https://hooks.example.com/a",
		);
		await user.click(screen.getByRole("button", { name: "Endpunkt hinzufügen" }));

		const list = await screen.findByRole("list", { name: "Webhook-Endpunkte" });
		const endpoint = within(list).getByRole("listitem", { name: "https://hooks.example.com/a" });
		expect(await within(endpoint).findByText("Noch keine Zustellungen.")).toBeVisible();
		await user.click(within(endpoint).getByRole("button", { name: "Testereignis senden" }));
		expect(
			await within(endpoint).findByText(
				"Testereignis eingereiht. Es erscheint unten im Protokoll.",
			),
		).toBeVisible();
		const table = await within(endpoint).findByRole("table", {
			name: "Zustellungen an diesen Endpunkt, die neueste zuerst",
		});
		expect(
			within(table)
				.getAllByRole("columnheader")
				.map((cell) => cell.textContent),
		).toEqual(["Ereignis", "Zeit", "Versuche", "Letzter Status", "Stand"]);
		expect(await within(table).findByText("Zugestellt")).toBeVisible();

		await user.click(
			within(endpoint).getByRole("button", {
				name: "Den Endpunkt https://hooks.example.com/a löschen",
			}),
		);
		const dialog = await screen.findByRole("alertdialog", { name: "Diesen Endpunkt löschen?" });
		expect(dialog).toHaveTextContent(
			"Atelier sendet keine Ereignisse mehr an https://hooks.example.com/a, und sein Zustellprotokoll wird gelöscht.",
		);
		await user.click(within(dialog).getByRole("button", { name: "Endpunkt löschen" }));
		expect(await screen.findByText("Noch keine Endpunkte.")).toBeVisible();
	});

	it("names shared links, their state and their views in German, one view and many", async () => {
		startFakeSharesServer({
			shares: [
				createLighthouseImageShare({ expiresAt: null, views: 1204 }),
				createTestShare({ prompt: "A harbour", views: 1, state: "hidden" }),
			],
		});
		renderWithProviders(<SharedLinksSection />);

		const list = await screen.findByRole("list", { name: "Deine geteilten Links" });
		const [lighthouse, harbour] = within(list).getAllByRole("listitem");
		if (!lighthouse || !harbour) throw new Error("two links");
		expect(lighthouse).toHaveTextContent("Bild 2 von „A lighthouse“");
		expect(lighthouse).toHaveTextContent("AktivPrompt verborgen");
		expect(lighthouse).toHaveTextContent(
			/Erstellt am 5\. Jan\. 2025.* · läuft nie ab · 1\.204 Aufrufe, zuletzt am 6\. Jan\. 2025/,
		);
		expect(within(lighthouse).getByRole("button", { name: "Neuer Link" })).toBeVisible();
		expect(within(lighthouse).getByRole("button", { name: "Widerrufen" })).toBeVisible();
		expect(harbour).toHaveTextContent("Entfernt");
		expect(harbour).toHaveTextContent(/ · 1 Aufruf$/);
	});
});
