import { expect, type Locator, type Page, test } from "@playwright/test";
import { createGenerations, openAccount } from "./support/history";
import { expectNoAxeViolations, uniqueEmail, waitForTransitions } from "./support/journeys";

// Menus open above the sticky site header: a card's menu opened with the card just under the
// header keeps every item, and its submenus' items, where a click reaches them.

const HEADER_HEIGHT_PX = 64;

/** Scrolls the page so the card's top sits just under the sticky header (again if the list moves). */
async function scrollUnderHeader(page: Page, card: Locator): Promise<void> {
	await expect(async () => {
		await card.scrollIntoViewIfNeeded();
		const box = await card.boundingBox();
		if (!box) throw new Error("the card is not on the screen");
		await page.evaluate((by) => window.scrollBy(0, by), box.y - HEADER_HEIGHT_PX - 4);
		const top = (await card.boundingBox())?.y ?? 0;
		expect(top).toBeGreaterThanOrEqual(HEADER_HEIGHT_PX);
		expect(top).toBeLessThanOrEqual(HEADER_HEIGHT_PX + 8);
	}).toPass();
}

/**
 * `locator` is wholly inside the window, and a click at its middle lands on it, not on a layer
 * above it (the header took such clicks).
 */
async function expectOnTop(locator: Locator): Promise<void> {
	const name = await locator.textContent();
	const place = await locator.evaluate((element) => {
		const rect = element.getBoundingClientRect();
		const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
		return {
			isInWindow: rect.top >= 0 && rect.bottom <= window.innerHeight,
			isOnTop: hit !== null && element.contains(hit),
		};
	});
	expect(place, `${name} is out of the window or under another layer`).toEqual({
		isInWindow: true,
		isOnTop: true,
	});
}

/**
 * Moves the pointer to `locator` the way a hand does, through the points between, then clicks it:
 * a submenu stays open while the pointer heads for it, and a pointer that jumps there in one step
 * seems to leave its trigger for elsewhere.
 */
async function clickAfterMovingTo(page: Page, locator: Locator): Promise<void> {
	const box = await locator.boundingBox();
	if (!box) throw new Error("the item is not on the screen");
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 12 });
	await locator.click();
}

test("a card's menu opened just under the header keeps its items and submenus above it", async ({
	browser,
}) => {
	const context = await openAccount(browser, uniqueEmail("menu-layers"));
	await context.grantPermissions(["clipboard-read", "clipboard-write"]);
	const prompts = [
		"A paper crane on a desk",
		"A paper boat in a gutter",
		"A paper lantern at dusk",
	];
	const ids = await createGenerations(
		context.request,
		prompts.map((prompt) => ({ prompt, aspectRatio: "--ar 1:1", count: 2 })),
	);
	const page = await context.newPage();
	// A short window: the menu finds more room above its button than below and opens upwards.
	await page.setViewportSize({ width: 1280, height: 560 });
	await page.goto("/generations");
	// The oldest, lowest on the page, so there is room to scroll it up to the header.
	const card = page.locator(`article[data-generation-id="${ids[0]}"]`);
	await expect(card).toBeVisible();

	const openMenu = async () => {
		await scrollUnderHeader(page, card);
		await card.getByRole("button", { name: "More actions" }).click();
		const menu = page.getByRole("menu").first();
		await expect(menu).toBeVisible();
		return menu;
	};

	// The first item, a submenu naming each image, and the Vary (strong) submenu's item.
	let menu = await openMenu();
	const items = menu.getByRole("menuitem");
	await expectOnTop(items.first());
	// A menu taller than the window's room scrolls within itself: its last item, once scrolled to.
	await items.last().scrollIntoViewIfNeeded();
	await expectOnTop(items.last());
	await menu.getByRole("menuitem", { name: "Vary (strong)" }).click();
	const strong = page.getByRole("menu", { name: "Vary (strong)" });
	await expect(strong).toBeVisible();
	for (const item of await strong.getByRole("menuitem").all()) await expectOnTop(item);
	const started = page.waitForResponse(
		(response) =>
			new URL(response.url()).pathname === "/api/generations" &&
			response.request().method() === "POST",
	);
	await clickAfterMovingTo(page, strong.getByRole("menuitem", { name: "Image 2" }));
	expect((await started).status()).toBe(201);
	// The variation's card comes first in the history: the list moves once, before the next menu.
	await expect(page.getByRole("article")).toHaveCount(prompts.length + 1);

	menu = await openMenu();
	await menu.getByRole("menuitem").first().click();
	const subtle = page.getByRole("menu", { name: "Vary (subtle)" });
	await expect(subtle).toBeVisible();
	await page.keyboard.press("Escape");
	await page.keyboard.press("Escape");
	await expect(page.getByRole("menu")).toHaveCount(0);

	// Copy prompt, and the toast that says so, above the header too.
	menu = await openMenu();
	await menu.getByRole("menuitem", { name: "Copy prompt" }).click();
	const copied = page.getByText("Prompt copied");
	await expect(copied).toBeVisible();
	expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(prompts[0]);
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	await context.close();
});
