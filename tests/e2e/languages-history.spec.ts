import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "./support/constants";
import { createGenerations, openAccount, type Seed } from "./support/history";
import { expectAxeInBothThemes, expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// A German-speaking person's history (docs/languages.md): the day, the filters and a card's menu in
// German, the preview, a board, the Undo toast, and the shared page a visitor opens signed out; axe
// in light and dark on the German history and preview, and each screen read on a 390 px phone.

test.describe.configure({ timeout: 240_000 });

const SEEDS: Seed[] = [
	{ prompt: "Ein Leuchtturm im Nebel", aspectRatio: "--ar 1:1" },
	{ prompt: "Laternen auf einem dunklen Fluss", aspectRatio: "--ar 16:9" },
];

function germanToday(): string {
	return new Intl.DateTimeFormat("de-DE", {
		month: "short",
		day: "numeric",
		year: "numeric",
	}).format(new Date());
}

test("a German-speaking person reads the history, the preview, boards, the Trash and a shared page in German", async ({
	browser,
}, testInfo) => {
	const context = await openAccount(browser, uniqueEmail("verlauf"), undefined, {
		locale: "de-DE",
	});
	await createGenerations(context.request, SEEDS);
	const [lighthouse, lanterns] = SEEDS.map((seed) => seed.prompt);
	if (!lighthouse || !lanterns) throw new Error("two seeds");
	const page = await context.newPage();
	await page.setViewportSize({ width: 1280, height: 900 });

	// The history: title, count, the day's heading, the filters and a card's menu.
	await page.goto("/generations");
	await expect(page.locator("html")).toHaveAttribute("lang", "de");
	await expect(
		page.getByRole("heading", { level: 1, name: "Gespeicherte Generierungen" }),
	).toBeVisible();
	await expect(page.getByText("2 Generierungen · 2 heute")).toBeVisible();
	await expect(page.getByRole("heading", { level: 2, name: germanToday() })).toBeVisible();
	await expect(page.getByRole("searchbox", { name: "Prompts durchsuchen" })).toBeVisible();
	await expect(page.getByRole("button", { name: "Nur Favoriten" })).toBeVisible();
	const card = page.getByRole("article", { name: lighthouse });
	await card.getByRole("button", { name: "Weitere Aktionen" }).click();
	await expect(page.getByRole("menuitem", { name: "Prompt verwenden" })).toBeVisible();
	await expect(page.getByRole("menuitem", { name: "Zum Board hinzufügen …" })).toBeVisible();
	await page.keyboard.press("Escape");
	await expectAxeInBothThemes(page);

	// The preview.
	await card.getByRole("button", { name: "Vorschau: Bild 1 von 4" }).click();
	const preview = page.getByRole("dialog", { name: "Bild 1 von 4" });
	await expect(preview.getByRole("button", { name: "Prompt kopieren" })).toBeVisible();
	await expect(preview.getByText("Seitenverhältnis")).toBeVisible();
	await expectAxeInBothThemes(page);
	await preview.getByRole("button", { name: "Schließen" }).click();

	// A board.
	await page.goto("/boards");
	await expect(page.getByRole("heading", { level: 1, name: "Boards" })).toBeVisible();
	await page.getByRole("textbox", { name: "Name" }).fill("Küste");
	await page.getByRole("button", { name: "Board anlegen" }).click();
	await expect(page.getByRole("list", { name: "Deine Boards" }).getByText("Küste")).toBeVisible();

	// To the Trash, with the German Undo toast.
	await page.goto("/generations");
	await page
		.getByRole("article", { name: lanterns })
		.getByRole("button", { name: "Löschen" })
		.click();
	await expect(page.getByText("Generierung gelöscht")).toBeVisible();
	await expect(page.getByRole("button", { name: "Rückgängig" })).toBeVisible();

	// Shared, and opened signed out by a German-speaking visitor.
	await card.getByRole("button", { name: "Vorschau: Bild 1 von 4" }).click();
	await preview.getByRole("button", { name: "Teilen" }).click();
	const share = page.getByRole("dialog", { name: "Teilen" });
	await share.getByRole("button", { name: "Link erstellen" }).click();
	const link = share.getByRole("textbox", { name: /Dein Link/ });
	await expect(link).toHaveValue(new RegExp(`^${E2E_BASE_URL}/s/[A-Za-z0-9_-]{43}$`));
	const url = await link.inputValue();
	await share.getByRole("button", { name: "Fertig" }).click();
	const visitorContext = await browser.newContext({ locale: "de-DE" });
	const visitor = await visitorContext.newPage();
	await visitor.goto(url);
	await expect(visitor.locator("html")).toHaveAttribute("lang", "de");
	await expect(
		visitor.getByRole("heading", { level: 1, name: "Geteilt aus Atelier" }),
	).toBeVisible();
	await expect(visitor.getByText("Diese Seite melden")).toBeVisible();
	await expectNoAxeViolations(visitor);
	await visitorContext.close();

	// On a 390 px phone: the filter bar, a card's menu and the preview's buttons, read from screenshots.
	await page.keyboard.press("Escape");
	await page.setViewportSize({ width: 390, height: 844 });
	await page.goto("/generations");
	await expect(page.getByRole("button", { name: "Nur Favoriten" })).toBeVisible();
	await page.screenshot({ path: testInfo.outputPath("phone-history.png") });
	await card.getByRole("button", { name: "Weitere Aktionen" }).click();
	await expect(page.getByRole("menuitem", { name: "Prompt verwenden" })).toBeVisible();
	await page.screenshot({ path: testInfo.outputPath("phone-card-menu.png") });
	await page.keyboard.press("Escape");
	await card.getByRole("button", { name: "Vorschau: Bild 1 von 4" }).click();
	await expect(preview).toBeVisible();
	await preview.getByRole("button", { name: "Prompt kopieren" }).scrollIntoViewIfNeeded();
	await page.screenshot({ path: testInfo.outputPath("phone-preview.png"), fullPage: true });
	await context.close();
});
