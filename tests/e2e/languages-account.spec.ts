import { expect, test } from "@playwright/test";
import { createGenerations, openAccount } from "./support/history";
import {
	expectAxeInBothThemes,
	expectNoAxeViolations,
	readMailLink,
	uniqueEmail,
	waitForMail,
} from "./support/journeys";

// A German-speaking person's account page (docs/languages.md): every section in German, an API
// token made on it, axe in light and dark, each section read on a 390 px phone; and the
// reset-password page reached from the link of a German e-mail, in German.

test.describe.configure({ timeout: 240_000 });

const PROMPT = "Ein Leuchtturm im Nebel";

test("a German-speaking person reads every section of the account page and resets the password in German", async ({
	browser,
}, testInfo) => {
	const email = uniqueEmail("konto");
	const context = await openAccount(browser, email, undefined, { locale: "de-DE" });
	// Something in each list: a shared link of one generation, and a style of the person's own.
	const [generationId] = await createGenerations(context.request, [
		{ prompt: PROMPT, aspectRatio: "--ar 1:1" },
	]);
	const shared = await context.request.post("/api/shares", {
		data: {
			target: { generationId, imageIndex: 0 },
			expires: "7d",
			originals: false,
			showPrompt: true,
		},
	});
	expect(shared.ok(), await shared.text()).toBe(true);
	const style = await context.request.post("/api/styles", {
		data: { name: "Aquarell", prompt: "{prompt}, als Aquarell" },
	});
	expect(style.ok(), await style.text()).toBe(true);

	const page = await context.newPage();
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto("/account");
	await expect(page.locator("html")).toHaveAttribute("lang", "de");
	await expect(page.getByRole("heading", { level: 1, name: "Konto" })).toBeVisible();
	const sections = {
		password: page.getByRole("region", { name: "Passwort" }),
		devices: page.getByRole("region", { name: "Angemeldete Geräte" }),
		tokens: page.getByRole("region", { name: "API-Tokens" }),
		webhooks: page.getByRole("region", { name: "Webhooks" }),
		styles: page.getByRole("region", { name: "Stile" }),
		shares: page.getByRole("region", { name: "Geteilte Links" }),
		push: page.getByRole("region", { name: "Benachrichtigungen auf diesem Gerät" }),
		data: page.getByRole("region", { name: "Deine Daten" }),
		delete: page.getByRole("region", { name: "Konto löschen" }),
	};
	await expect(sections.password.getByLabel("Aktuelles Passwort")).toBeVisible();
	await expect(sections.devices.getByText("Dieses Gerät")).toBeVisible();
	await expect(sections.webhooks.getByText("Noch keine Endpunkte.")).toBeVisible();
	await expect(sections.webhooks.getByLabel("URL des Endpunkts")).toBeVisible();
	await expect(sections.styles.getByRole("list", { name: "Deine Stile" })).toContainText(
		"Aquarell",
	);
	await expect(sections.styles.getByRole("button", { name: "Aquarell umbenennen" })).toBeVisible();
	const link = sections.shares.getByRole("list", { name: "Deine geteilten Links" });
	await expect(link).toContainText(`Bild 1 von „${PROMPT}“`);
	await expect(link).toContainText("Aktiv");
	await expect(link).toContainText("0 Aufrufe");
	await expect(sections.push).toContainText(
		/Noch kein Gerät wird benachrichtigt\.|auf diesem Server ausgeschaltet\./,
	);
	await expect(sections.data.getByRole("link", { name: "Meine Daten exportieren" })).toBeVisible();
	await expect(sections.delete.getByRole("button", { name: "Mein Konto löschen" })).toBeVisible();

	// An API token, made on the page and shown once, in German.
	await sections.tokens.getByRole("textbox", { name: "Name" }).fill("Nachtskript");
	await expect(sections.tokens.getByRole("combobox", { name: "Läuft ab" })).toContainText(
		"In 90 Tagen",
	);
	await sections.tokens.getByRole("button", { name: "Token erstellen" }).click();
	await expect(
		sections.tokens.getByText(
			"Dein Token „Nachtskript“. Kopiere es jetzt: Es wird nicht noch einmal angezeigt.",
		),
	).toBeVisible();
	await expect(sections.tokens.getByRole("textbox", { name: "Neues API-Token" })).toHaveValue(
		/\S{20,}/,
	);
	const tokens = sections.tokens.getByRole("list", { name: "Deine API-Tokens" });
	await expect(tokens).toContainText("Nachtskript");
	await expect(tokens).toContainText("nie genutzt");
	await expect(tokens.getByRole("button", { name: "Nachtskript widerrufen" })).toBeVisible();
	await expectAxeInBothThemes(page);

	// On a 390 px phone, each section read from its screenshot.
	await page.setViewportSize({ width: 390, height: 844 });
	for (const [name, section] of Object.entries(sections)) {
		await section.scrollIntoViewIfNeeded();
		const box = await section.boundingBox();
		expect(box?.width ?? 0, name).toBeLessThanOrEqual(390);
		await section.screenshot({ path: testInfo.outputPath(`phone-account-${name}.png`) });
	}
	const widest = await page.evaluate(() => document.documentElement.scrollWidth);
	expect(widest).toBeLessThanOrEqual(390);

	// Signed out, the reset e-mail this browser asks for is German, and so is the page it opens.
	await context.clearCookies();
	const since = Date.now();
	await page.goto("/forgot-password");
	await page.getByLabel("E-Mail").fill(email);
	await page.getByRole("button", { name: "Link senden" }).click();
	await expect(page.getByRole("status")).toContainText(
		"Wenn es für diese Adresse ein Konto gibt, haben wir einen Link geschickt.",
	);
	const mail = await waitForMail(email, since);
	expect(mail.subject).toBe("Setze dein Atelier-Passwort zurück");
	await page.goto(readMailLink(mail));
	await expect(page.getByRole("heading", { name: "Neues Passwort festlegen" })).toBeVisible();
	await expect(
		page.getByText(/Wähle das Passwort, mit dem du dich ab jetzt anmeldest/),
	).toBeVisible();
	await page.screenshot({ path: testInfo.outputPath("phone-reset-password.png") });
	await expectNoAxeViolations(page);
	await page.getByLabel("Neues Passwort", { exact: true }).fill("ganz neues Passwort");
	await page.getByLabel("Neues Passwort bestätigen").fill("ganz neues Passwort");
	await page.getByRole("button", { name: "Passwort festlegen" }).click();
	await expect(
		page.getByText("Dein neues Passwort ist festgelegt. Du bist angemeldet."),
	).toBeVisible();
	await context.close();
});
