// The generator in German: its texts come from the catalogue in the page's language, plurals by
// the language's rules, and a text the browser makes itself (a refused prompt) in it too.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerCatalogue, setActiveLanguage } from "../../../shared/i18n/runtime";
import german from "../../../shared/i18n/translations/de";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { cleanUpGeneratorScreen, startGeneratorApi } from "../../testing/generator-screen";
import { renderApp } from "../../testing/render-app";

beforeEach(() => {
	registerCatalogue("de", german);
	setActiveLanguage("de");
});

afterEach(() => {
	setActiveLanguage("en");
	cleanUpGeneratorScreen();
});

describe("the generator in German", () => {
	it("shows its form, its settings and its results in German", async () => {
		startGeneratorApi();
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderApp();
		const form = await screen.findByRole("form", { name: "Bilder erzeugen" });
		const counts = await within(form).findByRole("radiogroup", { name: "Bilder" });

		expect(screen.getByRole("heading", { name: "Gestalte mit Atelier" })).toBeVisible();
		expect(within(form).getByRole("combobox", { name: "Seitenverhältnis" })).toHaveTextContent(
			"Quadrat",
		);
		expect(within(counts).getByRole("radio", { name: "1 Bild" })).toBeInTheDocument();
		expect(within(counts).getByRole("radio", { name: "4 Bilder" })).toBeInTheDocument();
		expect(within(form).getByRole("button", { name: "Erweiterte Einstellungen" })).toBeVisible();
		expect(screen.getByRole("heading", { name: "Noch keine Bilder" })).toBeVisible();

		const user = userEvent.setup();
		await user.type(within(form).getByRole("textbox", { name: "Prompt" }), "Ein Leuchtturm");
		await user.click(within(form).getByRole("button", { name: "Erzeugen" }));

		const result = screen.getByRole("region", { name: "Ergebnis" });
		expect(await within(result).findByRole("heading", { name: "4 Bilder" })).toBeVisible();
		expect(within(result).getByRole("list", { name: "Erzeugte Bilder" })).toBeVisible();
		expect(within(result).getByRole("button", { name: "Bild 1 von 4 öffnen" })).toBeVisible();
	});

	it("says why the browser refuses an empty prompt, in German, under the box and in the panel", async () => {
		startGeneratorApi();
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderApp();
		const form = await screen.findByRole("form", { name: "Bilder erzeugen" });
		await within(form).findByRole("radiogroup", { name: "Bilder" });

		await userEvent.setup().keyboard("{Control>}{Enter}{/Control}");

		const result = screen.getByRole("region", { name: "Ergebnis" });
		expect(await within(result).findByText("Bitte gib einen gültigen Prompt ein.")).toBeVisible();
		expect(within(form).getByText("Der Prompt darf nicht leer sein")).toBeVisible();
	});
});
