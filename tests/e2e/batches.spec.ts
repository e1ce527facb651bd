import { mkdir } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { openAccount, revealCard } from "./support/history";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// Batches against the real server (decision 038): Variations of a prompt's {a|b} choice and
// Compare models, chosen by keyboard, the number of generations said before Generate, the batch
// shown together in the generator and as one group in the history. Each journey has an account
// of its own (whose concurrency quota, 3, a batch of two fits).

const PROMPT_TOOLS_SCREENSHOT = "docs/images/prompt-tools.png";

test("Variations chosen by keyboard make one generation per combination, shown together and in the history", async ({
	browser,
}) => {
	const context = await openAccount(browser, uniqueEmail("variations"));
	const page = await context.newPage();
	await page.goto("/");
	await page.getByRole("textbox", { name: "Prompt" }).fill("A {red|blue} kite over the sea");
	const variations = page.getByRole("group", { name: "Variations" });
	await expect(variations).toBeVisible();
	const all = variations.getByRole("radio", { name: "All combinations" });
	await variations.getByRole("radio", { name: "Off" }).focus();
	await page.keyboard.press("ArrowRight");
	await expect(all).toBeChecked();
	await expect(page.getByText("Makes 2 generations")).toBeVisible();
	await expectNoAxeViolations(page);

	await page.getByRole("button", { name: "Generate" }).focus();
	await page.keyboard.press("Enter");
	const batch = page.getByRole("region", { name: "Batch of 2" });
	await expect(batch).toBeVisible({ timeout: 30_000 });
	await expect(batch.getByText("A red kite over the sea")).toBeVisible();
	await expect(batch.getByText("A blue kite over the sea")).toBeVisible();
	await expect(batch.getByText("2 of 2 finished", { exact: false })).toBeVisible({
		timeout: 30_000,
	});
	await expect(batch.getByText(/Done in/).first()).toBeVisible();
	await expectNoAxeViolations(page);
	// The README's picture of the prompt tools: Recent, Variations and their count, Compare models.
	await mkdir("docs/images", { recursive: true });
	await page.mouse.move(0, 0);
	await page.screenshot({ path: PROMPT_TOOLS_SCREENSHOT });

	await batch.getByRole("link", { name: "Show the batch in the history" }).click();
	await expect(page).toHaveURL(/\/generations\?batch=/);
	await expect(page.getByRole("button", { name: /One batch/ })).toHaveAttribute(
		"aria-pressed",
		"true",
	);
	const card = await revealCard(page, "A red kite over the sea");
	await expect(card.getByRole("link", { name: /^Batch/ })).toBeVisible();
	await expectNoAxeViolations(page);
	await context.close();
});

test("Compare models sends one prompt to two models, each with its price, side by side", async ({
	browser,
}) => {
	const context = await openAccount(browser, uniqueEmail("compare"));
	const page = await context.newPage();
	await page.goto("/");
	await page.getByRole("textbox", { name: "Prompt" }).fill("A lighthouse at dusk");
	// Quick sketch makes one or two images: a count it does not offer is refused, naming it.
	await page.getByRole("radio", { name: "4 images" }).focus();
	for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowLeft");
	await expect(page.getByRole("radio", { name: "1 image" })).toBeChecked();
	const compare = page.getByRole("checkbox", { name: "Compare models" });
	await compare.focus();
	await page.keyboard.press("Space");
	const models = page.getByRole("group", { name: /Models to compare/ });
	await expect(models).toBeVisible();
	await expect(page.getByText("Choose 2 to 4 models to compare")).toBeVisible();
	const sketch = models.getByRole("checkbox", { name: /Quick sketch · \$0\.0\d a generation/ });
	await sketch.focus();
	await page.keyboard.press("Space");
	await expect(sketch).toBeChecked();
	await expect(page.getByText("Makes 2 generations")).toBeVisible();
	await expectNoAxeViolations(page);

	await page.getByRole("button", { name: "Generate" }).click();
	const batch = page.getByRole("region", { name: "Batch of 2" });
	await expect(batch).toBeVisible({ timeout: 30_000 });
	await expect(batch.getByText("Offline engine")).toBeVisible();
	await expect(batch.getByText("Quick sketch")).toBeVisible();
	await expect(batch.getByText("2 of 2 finished", { exact: false })).toBeVisible({
		timeout: 30_000,
	});
	await expectNoAxeViolations(page);
	await context.close();
});
