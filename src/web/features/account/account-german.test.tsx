import { screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerCatalogue, setActiveLanguage } from "../../../shared/i18n/runtime";
import de from "../../../shared/i18n/translations/de";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { mswServer } from "../../testing/msw-server";
import { renderWithProviders } from "../../testing/render-app";
import { ChangePasswordForm } from "./change-password-form";
import { DeleteAccountDialog } from "./delete-account-dialog";

describe("the account's forms on a German page", () => {
	beforeEach(() => {
		registerCatalogue("de", de);
		setActiveLanguage("de");
	});
	afterEach(() => {
		setActiveLanguage("en");
	});

	it("asks for the current password and says what a change ends, in German", () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderWithProviders(<ChangePasswordForm onChanged={() => {}} />);

		expect(screen.getByLabelText("Aktuelles Passwort")).toBeVisible();
		expect(screen.getByText("Andere Geräte abmelden")).toBeVisible();
		expect(
			screen.getByText(
				"Andere Geräte werden abgemeldet, und jedes API-Token und jeder Webhook dieses Kontos endet.",
			),
		).toBeVisible();
		expect(screen.getByRole("button", { name: "Passwort ändern" })).toBeVisible();
	});

	it("confirms a deletion by the e-mail address, the address inside the German sentence", async () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		const { user } = renderWithProviders(
			<DeleteAccountDialog email="ada@example.com" onDeleted={async () => {}} />,
		);

		await user.click(screen.getByRole("button", { name: "Mein Konto löschen" }));
		const dialog = await screen.findByRole("alertdialog", { name: "Dein Konto löschen?" });
		expect(dialog).toHaveTextContent(
			"Das lässt sich nicht rückgängig machen. Gib zur Bestätigung ada@example.com ein.",
		);
		expect(screen.getByText("ada@example.com").tagName).toBe("STRONG");
		expect(screen.getByLabelText("Deine E-Mail-Adresse")).toBeVisible();
		expect(screen.getByRole("button", { name: "Abbrechen" })).toBeVisible();
	});

	it.each([
		["de", "Ein unerwarteter Fehler ist aufgetreten. Bitte versuche es erneut."],
		["en", "An unexpected error occurred. Please try again."],
	] as const)(
		"says a refusal without words of its own in the page's language (%s)",
		async (language, said) => {
			setActiveLanguage(language);
			startFakeAuthServer({ signedInAs: createTestUser() });
			mswServer.use(
				http.post("*/api/auth/change-password", () => HttpResponse.json({}, { status: 500 })),
			);
			const { user } = renderWithProviders(<ChangePasswordForm onChanged={() => {}} />);
			const label = (german: string, english: string) => (language === "de" ? german : english);

			await user.type(
				screen.getByLabelText(label("Aktuelles Passwort", "Current password")),
				"old password here",
			);
			await user.type(
				screen.getByLabelText(label("Neues Passwort", "New password")),
				"a new password here",
			);
			await user.type(
				screen.getByLabelText(label("Neues Passwort bestätigen", "Confirm new password")),
				"a new password here",
			);
			await user.click(
				screen.getByRole("button", { name: label("Passwort ändern", "Change password") }),
			);

			expect(await screen.findByText(said)).toBeVisible();
		},
	);
});
