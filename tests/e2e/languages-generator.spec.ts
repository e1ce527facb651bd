import { mkdir } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { E2E_PASSWORD } from "./support/constants";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// The generator in German (docs/languages.md): a browser that asks for German, on a phone's
// window, signs up, generates with the offline engine and reads the server's refusal in German.
const GERMAN_SCREENSHOT = "docs/images/german.png";

test.use({ locale: "de-DE", viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 180_000 });

async function expectTheme(page: Page, theme: "light" | "dark"): Promise<void> {
	await page.emulateMedia({ colorScheme: theme });
	await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
}

/** No line of the generator's form is wider than the window: nothing overflows sideways. */
async function expectNothingWiderThanTheWindow(page: Page): Promise<void> {
	const overflow = await page.evaluate(() => {
		const width = document.documentElement.clientWidth;
		return [...document.querySelectorAll("form *")]
			.filter((element) => element.getBoundingClientRect().right > width + 0.5)
			.map((element) => element.outerHTML.slice(0, 120));
	});
	expect(overflow).toEqual([]);
}

test("a German browser generates in German and reads the server's refusal in German", async ({
	page,
}, testInfo) => {
	await page.goto("/signup");
	await page.getByLabel("E-Mail").fill(uniqueEmail("generator-de"));
	await page.getByLabel("Passwort", { exact: true }).fill(E2E_PASSWORD);
	await page.getByLabel("Passwort bestätigen").fill(E2E_PASSWORD);
	await page.getByRole("button", { name: "Registrieren" }).click();
	await expect(page).toHaveURL(/\/$/);

	await expect(page.locator("html")).toHaveAttribute("lang", "de");
	await expect(page.getByRole("heading", { name: "Gestalte mit Atelier" })).toBeVisible();
	const form = page.getByRole("form", { name: "Bilder erzeugen" });
	await expect(form.getByRole("combobox", { name: "Seitenverhältnis" })).toContainText("Quadrat");
	// The settings arrive after the first paint, with the models.
	await expect(form.getByRole("radiogroup", { name: "Bilder" })).toBeVisible();
	await expect(form.getByRole("button", { name: "Erweiterte Einstellungen" })).toBeVisible();
	await expect(form.getByRole("switch", { name: "Benachrichtigen, wenn fertig" })).toBeVisible();
	await expect(page.getByRole("heading", { name: "Noch keine Bilder" })).toBeVisible();

	await expectTheme(page, "light");
	await expectNoAxeViolations(page);
	await expectNothingWiderThanTheWindow(page);
	await page.screenshot({ path: testInfo.outputPath("generator-de-light.png"), fullPage: true });
	await expectTheme(page, "dark");
	await expectNoAxeViolations(page);
	await page.screenshot({ path: testInfo.outputPath("generator-de-dark.png"), fullPage: true });
	await expectTheme(page, "light");

	await form.getByRole("button", { name: "Erweiterte Einstellungen" }).click();
	await expect(form.getByRole("combobox", { name: "Stil" })).toBeVisible();
	await expectNothingWiderThanTheWindow(page);
	await page.screenshot({ path: testInfo.outputPath("generator-de-advanced.png"), fullPage: true });

	await form.getByRole("textbox", { name: "Prompt", exact: true }).fill("Ein Leuchtturm im Sturm");
	await form.getByRole("button", { name: "Erzeugen", exact: true }).click();
	const result = page.getByRole("region", { name: "Ergebnis" });
	await expect(result.getByRole("heading", { name: /^\d+ Bilder?$/ })).toBeVisible({
		timeout: 60_000,
	});
	await expect(result.getByRole("list", { name: "Erzeugte Bilder" })).toBeVisible();
	await expect(result.getByRole("button", { name: /^Bild 1 von \d+ öffnen$/ })).toBeVisible();
	await expectNoAxeViolations(page);
	await page.screenshot({ path: testInfo.outputPath("generator-de-results.png"), fullPage: true });
	// The README's picture of the German interface: the generator on a phone, with its results.
	await page.evaluate(() => window.scrollTo(0, 0));
	await mkdir("docs/images", { recursive: true });
	await page.screenshot({ path: GERMAN_SCREENSHOT });

	// The session ends behind the page's back: the server refuses the next start, in German, and
	// the screen says so with a way to sign in again.
	await page.context().clearCookies({ name: /session/ });
	await form.getByRole("button", { name: "Erzeugen", exact: true }).click();
	await expect(result.getByRole("alert")).toHaveText("Bitte melde dich an, um Bilder zu erzeugen.");
	await expect(result.getByRole("link", { name: "Anmelden" })).toBeVisible();
});
