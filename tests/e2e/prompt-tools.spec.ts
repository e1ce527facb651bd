import { expect, test } from "@playwright/test";
import { createGenerations, openAccount, revealCard } from "./support/history";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// The prompt tools against the real server: a style chosen under Advanced settings and kept on
// the generation, its chip and filter in the history, Save as style, and recall in the prompt box
// with the Recent menu. Each journey has an account of its own.

test("a style chosen by keyboard is sent, kept and shown in the history, and filters it", async ({
	browser,
}) => {
	const context = await openAccount(browser, uniqueEmail("styles"));
	const page = await context.newPage();
	await page.goto("/");
	const prompt = page.getByRole("textbox", { name: "Prompt" });
	await prompt.fill("A lighthouse in a storm");
	await page.getByRole("button", { name: "Advanced settings" }).click();
	const style = page.getByRole("combobox", { name: "Style" });
	await style.focus();
	await style.selectOption({ label: "Cinematic" });
	await expect(page.getByText("Sends: …, cinematic lighting, 35 mm film")).toBeVisible();
	await expectNoAxeViolations(page);

	await page.getByRole("button", { name: "Save as style" }).click();
	await page.getByRole("textbox", { name: "Style name" }).fill("Stormy");
	await page.keyboard.press("Enter");
	await expect(page.getByText('Style "Stormy" saved')).toBeVisible();
	await style.selectOption({ label: "Cinematic" });

	await page.getByRole("button", { name: "Generate" }).click();
	await expect(page.getByRole("button", { name: "Generate" })).toBeEnabled({ timeout: 30_000 });

	await page.goto("/generations");
	const card = await revealCard(page, "A lighthouse in a storm");
	const chip = card.getByRole("link", { name: "Style Cinematic" });
	await expect(chip).toBeVisible();
	await expectNoAxeViolations(page);
	await chip.click();
	await expect(page).toHaveURL(/style=cinematic/);
	await expect(page.getByRole("button", { name: /Style: Cinematic/ })).toBeVisible();

	await page.goto("/account");
	await expect(page.getByRole("list", { name: "Your styles" })).toContainText("Stormy");
	await expectNoAxeViolations(page);
	await context.close();
});

test("Alt+Up recalls the last prompts from another session, and Recent searches them", async ({
	browser,
}) => {
	const email = uniqueEmail("recall");
	const first = await openAccount(browser, email);
	await createGenerations(first.request, [
		{ prompt: "A red fox in snow", aspectRatio: "--ar 1:1" },
		{ prompt: "A tea house in rain", aspectRatio: "--ar 1:1" },
	]);
	// Another device: a second session of the same person.
	const second = await openAccount(browser, email);
	const page = await second.newPage();
	await page.goto("/");
	await expect(page.getByRole("button", { name: "Recent" })).toBeVisible();
	const prompt = page.getByRole("textbox", { name: "Prompt" });
	await prompt.click();
	await page.keyboard.type("draft");
	await page.keyboard.press("Alt+ArrowUp");
	await expect(prompt).toHaveValue("A tea house in rain");
	await page.keyboard.press("Alt+ArrowUp");
	await expect(prompt).toHaveValue("A red fox in snow");
	await page.keyboard.press("Alt+ArrowDown");
	await page.keyboard.press("Alt+ArrowDown");
	await expect(prompt).toHaveValue("draft");

	await page.getByRole("button", { name: "Recent" }).click();
	await page.keyboard.type("fox");
	const list = page.getByRole("list", { name: "Recent prompts" });
	await expect(list.getByRole("listitem")).toHaveCount(1);
	await expectNoAxeViolations(page);
	await list.getByRole("button", { name: "A red fox in snow", exact: true }).click();
	await expect(prompt).toHaveValue("A red fox in snow");
	await first.close();
	await second.close();
});
