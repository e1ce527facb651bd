import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "./support/constants";
import { createGenerations, openAccount, openAdministratorAccount } from "./support/history";
import { expectAxeInBothThemes, expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// The administrator in German (docs/languages.md): People with a confirmation open, Usage, the
// shared links and the audit log, each with axe in the light and the dark theme; the user menu; the
// not-found page; and each screen read on a 390 px phone from its screenshot.

test.describe.configure({ timeout: 240_000 });

test("the administrator reads People, Usage, the shared links, the audit log and the menu in German", async ({
	browser,
}, testInfo) => {
	const email = uniqueEmail("sprache");
	const person = await openAccount(browser, email);
	const [generationId] = await createGenerations(person.request, [
		{ prompt: "Ein Reiher im Schilf", aspectRatio: "--ar 1:1" },
	]);
	const shared = await person.request.post("/api/shares", {
		data: { target: { generationId }, expires: "1d", originals: false, showPrompt: true },
		headers: { origin: E2E_BASE_URL },
	});
	expect(shared.status(), await shared.text()).toBe(201);
	await person.close();

	// The administrator's session in a German-speaking browser.
	const signedIn = await openAdministratorAccount(browser);
	const storageState = await signedIn.storageState();
	await signedIn.close();
	const admin = await browser.newContext({ baseURL: E2E_BASE_URL, locale: "de-DE", storageState });
	const page = await admin.newPage();
	await page.setViewportSize({ width: 1280, height: 900 });

	// People, a person found and the confirmation of Disable open.
	await page.goto("/admin/people");
	await expect(page.locator("html")).toHaveAttribute("lang", "de");
	await expect(page.getByRole("heading", { level: 1, name: "Personen" })).toBeVisible();
	await page.getByRole("searchbox", { name: "Nach E-Mail-Adresse suchen" }).fill(email);
	await expect(page.getByText("Seite 1 von 1 · 1 Person", { exact: true })).toBeVisible();
	await page.getByRole("button", { name: `Aktionen für ${email}` }).click();
	await page.getByRole("menuitem", { name: "Deaktivieren…" }).click();
	const confirmation = page.getByRole("alertdialog", { name: "Diese Person deaktivieren?" });
	await expect(confirmation).toContainText(`${email} wird sofort überall abgemeldet`);
	await expectAxeInBothThemes(page);

	// Usage, its report drawn.
	await page.goto("/admin/usage");
	await expect(page.getByRole("heading", { level: 1, name: "Nutzung" })).toBeVisible();
	const generations = page.getByRole("region", { name: "Generierungen pro Tag nach Modell" });
	await expect(
		generations.getByRole("img", { name: /^Generierungen pro Tag nach Modell: Diagramm\./ }),
	).toBeVisible();
	await expect(generations.getByRole("link", { name: /^CSV herunterladen:/ })).toBeVisible();
	await expectAxeInBothThemes(page);

	// The shared links, the person's among them, which the administrator hides.
	await page.goto("/admin/shares");
	await expect(page.getByRole("heading", { level: 1, name: "Geteilte Links" })).toBeVisible();
	await expect(page.getByRole("heading", { level: 2, name: "Meldungen" })).toBeVisible();
	const row = page.getByRole("row").filter({ hasText: "Ein Reiher im Schilf" }).first();
	await expect(row).toContainText("Alle Bilder von „Ein Reiher im Schilf“");
	await expect(row).toContainText("Aktiv");
	await expectAxeInBothThemes(page);
	await row.getByRole("button", { name: /^Alle Bilder von .* verbergen$/ }).click();
	await expect(row).toContainText("Verborgen");

	// The audit log, which holds the hiding.
	await page.goto("/admin/audit-log");
	await expect(page.getByRole("heading", { level: 1, name: "Protokoll" })).toBeVisible();
	await expect(page.getByRole("columnheader", { name: "Wessen" })).toBeVisible();
	await expect(page.getByText("Geteilten Link verborgen").first()).toBeVisible();
	await expectAxeInBothThemes(page);

	// The user menu.
	await page.getByRole("button", { name: "Kontomenü" }).click();
	for (const item of ["Papierkorb", "Protokoll", "Personen", "Konto", "Abmelden"]) {
		await expect(page.getByRole("menuitem", { name: item })).toBeVisible();
	}
	await expect(page.getByRole("menuitemradio", { name: "Dunkel" })).toBeVisible();
	await page.keyboard.press("Escape");

	// On a 390 px phone: each screen and the menu, read from screenshots.
	await page.setViewportSize({ width: 390, height: 844 });
	for (const [address, heading, name] of [
		["/admin/people", "Personen", "people"],
		["/admin/usage", "Nutzung", "usage"],
		["/admin/shares", "Geteilte Links", "shares"],
		["/admin/audit-log", "Protokoll", "audit-log"],
	] as const) {
		await page.goto(address);
		await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
		// Each screen's content, not its spinner.
		await expect(page.getByRole(name === "usage" ? "region" : "table").first()).toBeVisible();
		await page.screenshot({ path: testInfo.outputPath(`phone-${name}.png`), fullPage: true });
	}
	await page.goto("/admin/people");
	await page.getByRole("searchbox", { name: "Nach E-Mail-Adresse suchen" }).fill(email);
	await page.getByRole("button", { name: `Aktionen für ${email}` }).click();
	await page.getByRole("menuitem", { name: "Konto löschen…" }).click();
	await expect(page.getByRole("alertdialog", { name: "Dieses Konto löschen?" })).toBeVisible();
	await page.screenshot({ path: testInfo.outputPath("phone-people-confirmation.png") });
	await page.keyboard.press("Escape");
	await page.getByRole("button", { name: "Kontomenü" }).click();
	await expect(page.getByRole("menuitem", { name: "Abmelden" })).toBeVisible();
	await page.screenshot({ path: testInfo.outputPath("phone-user-menu.png") });
	await admin.close();
});

test("the not-found page speaks German", async ({ browser }) => {
	const visitor = await browser.newContext({ baseURL: E2E_BASE_URL, locale: "de-DE" });
	const page = await visitor.newPage();
	await page.goto("/nirgendwo");
	await expect(page.getByRole("heading", { level: 1, name: "Seite nicht gefunden" })).toBeVisible();
	await expect(page.getByText("Die Seite, die du suchst, gibt es nicht")).toBeVisible();
	await expect(page.getByRole("link", { name: "Zur Startseite" })).toBeVisible();
	await expectNoAxeViolations(page);
	await visitor.close();
});
