import { expect, type Page, test } from "@playwright/test";
import { createGenerations, openAccount, type Seed } from "./support/history";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// Boards against the real server: a board made and filled from the generator and the history, a
// smart board that stays current, and a shared board seen read-only by another person. Each
// journey has accounts of its own.

async function makeBoard(page: Page, name: string, options: { isShared?: boolean } = {}) {
	await page.goto("/boards");
	const form = page.getByRole("form", { name: "New board" });
	await form.getByRole("textbox", { name: "Name" }).fill(name);
	if (options.isShared) {
		await form.getByRole("checkbox", { name: "Shared with everyone signed in" }).check();
	}
	await form.getByRole("button", { name: "Make board" }).click();
	await expect(page.getByRole("list", { name: "Your boards" }).getByText(name)).toBeVisible();
}

test("makes a board, fills it from the generator and the history, and opens its page", async ({
	browser,
}) => {
	test.setTimeout(300_000);
	const context = await openAccount(browser, uniqueEmail("boards"));
	await createGenerations(context.request, [
		{ prompt: "A harbour at dawn, fishing boats", aspectRatio: "--ar 1:1" },
	]);
	const page = await context.newPage();
	await makeBoard(page, "Lighthouses");
	await expectNoAxeViolations(page);

	// From the generator: Add new results to… the board, then Generate.
	await page.goto("/");
	await page.getByRole("button", { name: "Advanced settings" }).click();
	await page.getByRole("checkbox", { name: "Lighthouses" }).check();
	await page
		.getByRole("textbox", { name: "Prompt", exact: true })
		.fill("A lighthouse on a cliff at dusk");
	await page.getByRole("button", { name: "Generate" }).click();
	// Done when Generate is back; a busy machine takes a while.
	await expect(page.getByRole("button", { name: "Generate", exact: true })).toBeVisible({
		timeout: 150_000,
	});

	// From the history: Add to board… on a card's menu.
	await page.goto("/generations");
	const harbour = page.getByRole("article", { name: "A harbour at dawn, fishing boats" });
	await harbour.getByRole("button", { name: "More actions" }).click();
	await page.getByRole("menuitem", { name: "Add to board…" }).click();
	const dialog = page.getByRole("dialog", { name: "Add to board" });
	await expectNoAxeViolations(page);
	await dialog.getByRole("button", { name: /Lighthouses/ }).click();
	await expect(page.getByText("Added 1 generation to Lighthouses")).toBeVisible();

	await page.goto("/boards");
	await page.getByRole("link", { name: /Lighthouses/ }).click();
	await expect(page.getByRole("heading", { level: 1, name: "Lighthouses" })).toBeVisible();
	await expect(page.getByRole("article")).toHaveCount(2);
	// Its address survives a reload, and the history's search works inside it.
	await page.goto(`${page.url()}?q=harbour`);
	await expect(page.getByRole("article")).toHaveCount(1);
	await expectNoAxeViolations(page);
	await context.close();
});

test("keeps a smart board current", async ({ browser }) => {
	const context = await openAccount(browser, uniqueEmail("smart-board"));
	const seeds: Seed[] = [
		{ prompt: "Koi pond in a Japanese garden", aspectRatio: "--ar 1:1" },
		{ prompt: "Koi in a stone basin, rain", aspectRatio: "--ar 1:1" },
		{ prompt: "Neon city at night", aspectRatio: "--ar 1:1" },
	];
	await createGenerations(context.request, seeds.slice(0, 2));
	const page = await context.newPage();
	await page.goto("/boards");
	const form = page.getByRole("form", { name: "New board" });
	await form.getByRole("textbox", { name: "Name" }).fill("Koi");
	await form.getByRole("checkbox", { name: /Smart board/ }).check();
	await form.getByRole("textbox", { name: "Prompt contains" }).fill("koi");
	await form.getByRole("button", { name: "Make board" }).click();
	await page.getByRole("link", { name: /Koi/ }).click();
	await expect(page.getByText("Smart", { exact: true })).toBeVisible();
	await expect(page.getByRole("article")).toHaveCount(2);
	await expectNoAxeViolations(page);

	await createGenerations(context.request, [
		{ prompt: "Koi under lily pads", aspectRatio: "--ar 1:1" },
		seeds[2] as Seed,
	]);
	await page.reload();
	await expect(page.getByRole("article")).toHaveCount(3);
	await context.close();
});

test("shows a shared board to another person, read-only, with its images", async ({ browser }) => {
	const owner = await openAccount(browser, uniqueEmail("board-owner"));
	const [id] = await createGenerations(owner.request, [
		{ prompt: "A red lantern in the snow", aspectRatio: "--ar 1:1" },
	]);
	const ownerPage = await owner.newPage();
	await makeBoard(ownerPage, "Lanterns", { isShared: true });
	const boards = (await (await owner.request.get("/api/boards")).json()) as {
		items: { id: string; name: string }[];
	};
	const board = boards.items.find((entry) => entry.name === "Lanterns");
	await owner.request.post(`/api/boards/${board?.id}/generations`, {
		data: { ids: [id] },
		headers: { origin: new URL(ownerPage.url()).origin },
	});

	const viewer = await openAccount(browser, uniqueEmail("board-viewer"));
	const page = await viewer.newPage();
	await page.goto(`/boards/${board?.id}`);
	await expect(page.getByRole("heading", { level: 1, name: "Lanterns" })).toBeVisible();
	await expect(page.getByText(/Shared by board-owner.* · read-only/)).toBeVisible();
	const card = page.getByRole("article", { name: "A red lantern in the snow" });
	// Its image loads for the viewer.
	await expect
		.poll(() =>
			card
				.locator("img")
				.first()
				.evaluate((image: HTMLImageElement) => image.naturalWidth),
		)
		.toBeGreaterThan(0);
	await expect(page.getByRole("button", { name: "Delete board" })).toHaveCount(0);
	// The owner's generation is not the viewer's to delete or mark as a favourite.
	await expect(card.getByRole("button", { name: "Delete" })).toHaveCount(0);
	await expect(card.getByRole("button", { name: "Favourite" })).toHaveCount(0);
	await expectNoAxeViolations(page);
	await owner.close();
	await viewer.close();
});
