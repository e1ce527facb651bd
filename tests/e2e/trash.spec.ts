import { expect, type Page, test } from "@playwright/test";
import { createGenerations, openAccount, type Seed } from "./support/history";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// The Trash against the real server: delete from the history, Undo from the toast, delete again,
// restore from the Trash page, then empty it after its confirmation.

const SEEDS: Seed[] = [
	{ prompt: "A red kite over the dunes", aspectRatio: "--ar 1:1" },
	{ prompt: "Lanterns floating on a dark river", aspectRatio: "--ar 16:9" },
];

function card(page: Page, prompt: string) {
	return page.getByRole("article", { name: prompt });
}

test("delete, undo from the toast, delete again, restore from the Trash and empty it", async ({
	browser,
}) => {
	// Four axe passes and two generations on shared cores: more than the default minute.
	test.setTimeout(120_000);
	const context = await openAccount(browser, uniqueEmail("trash"));
	await createGenerations(context.request, SEEDS);
	const [kite, lanterns] = SEEDS.map((seed) => seed.prompt);
	if (!kite || !lanterns) throw new Error("two seeds");
	const page = await context.newPage();
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto("/generations");
	await expect(page.getByText("2 generations · 2 today")).toBeVisible();

	// Deleting asks nothing; the toast offers Undo, which puts the generation back.
	await card(page, kite).getByRole("button", { name: "Delete" }).click();
	await expect(page.getByText("Generation deleted successfully")).toBeVisible();
	await expect(card(page, kite)).toHaveCount(0);
	await expect(page.getByText("1 generation · 1 today")).toBeVisible();
	await expectNoAxeViolations(page);
	await page.getByRole("button", { name: "Undo" }).click();
	await expect(card(page, kite)).toBeVisible();
	await expect(page.getByText("2 generations · 2 today")).toBeVisible();

	// Deleted again, it waits in the Trash, reached from the user menu.
	await card(page, kite).getByRole("button", { name: "Delete" }).click();
	await expect(card(page, kite)).toHaveCount(0);
	await page.getByRole("button", { name: "Account menu" }).click();
	await page.getByRole("menuitem", { name: "Trash" }).click();
	await expect(page).toHaveURL(/\/trash$/);
	await expect(page.getByRole("heading", { name: "Trash" })).toBeVisible();
	const row = page.locator("li[data-trash-id]", { hasText: kite });
	await expect(row).toBeVisible();
	await expect(row.getByText(/Deleted .* · Removed for good/)).toBeVisible();
	await expectNoAxeViolations(page);

	// Restore puts it back in the history.
	await row.getByRole("button", { name: "Restore" }).click();
	await expect(page.getByText("The Trash is empty.")).toBeVisible();
	await page.goto("/generations");
	await expect(card(page, kite)).toBeVisible();

	// Both deleted, then Empty Trash after its confirmation removes them for good.
	await page.getByRole("button", { name: "Select", exact: true }).click();
	const bar = page.getByRole("region", { name: "Selection" });
	await bar.getByRole("button", { name: "Select all shown" }).click();
	await bar.getByRole("button", { name: "Delete" }).click();
	await expect(page.getByText("2 generations deleted")).toBeVisible();
	await page.goto("/trash");
	await expect(page.locator("li[data-trash-id]")).toHaveCount(2);
	await page.getByRole("button", { name: "Empty Trash" }).click();
	const dialog = page.getByRole("alertdialog", { name: "Empty Trash?" });
	await expect(
		dialog.getByText(
			"This action cannot be undone. Everything in the Trash will be deleted for good.",
		),
	).toBeVisible();
	await expectNoAxeViolations(page);
	await dialog.getByRole("button", { name: "Empty Trash" }).click();
	await expect(page.getByText("The Trash is empty.")).toBeVisible();
	await expect(page.getByText("2 deleted forever")).toBeVisible();
	await context.close();
});
