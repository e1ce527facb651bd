import { mkdir } from "node:fs/promises";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { E2E_BASE_URL } from "./support/constants";
import { createGenerations, openAccount, type Seed } from "./support/history";
import { uniqueEmail, waitForTransitions } from "./support/journeys";

// The README's pictures of the boards and the Trash, in the light theme, with the offline engine's
// images: a person with a few boards (covers, a favourite, a smart board) and a few generations in
// the Trash. Run it again to make them again (`npm run build` first):
//   npx playwright test tests/e2e/boards-tour.spec.ts

const BOARDS_SCREENSHOT = "docs/images/boards.png";
const TRASH_SCREENSHOT = "docs/images/trash.png";

const SEEDS: Seed[] = [
	{ prompt: "A lighthouse on a cliff at dusk", aspectRatio: "--ar 1:1" },
	{ prompt: "A red lighthouse in a winter storm", aspectRatio: "--ar 16:9" },
	{ prompt: "A harbour at dawn, fishing boats", aspectRatio: "--ar 16:9" },
	{ prompt: "Terracotta rooftops of an old town, morning light", aspectRatio: "--ar 1:1" },
	{ prompt: "A lemon tree in a blue ceramic pot", aspectRatio: "--ar 1:1" },
	{ prompt: "Watercolour map of an imaginary island", aspectRatio: "--ar 1:1" },
	{ prompt: "A fox asleep in tall grass", aspectRatio: "--ar 16:9" },
	{ prompt: "Lanterns floating on a dark river", aspectRatio: "--ar 16:9" },
];

async function call(request: APIRequestContext, method: string, url: string, data?: unknown) {
	const response = await request.fetch(url, {
		method,
		data,
		headers: { origin: E2E_BASE_URL },
	});
	expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
	return response.json() as Promise<{ id?: string }>;
}

async function expectImagesLoaded(page: Page): Promise<void> {
	await expect
		.poll(() =>
			page
				.locator("main img")
				.evaluateAll((images) =>
					images.every((image) => (image as HTMLImageElement).naturalWidth > 0),
				),
		)
		.toBe(true);
}

/** The page as a small PNG: a palette of 256 colours keeps the README's pictures light. */
async function screenshot(page: Page, path: string, top = 0): Promise<void> {
	await page.evaluate((y) => window.scrollTo(0, y), top);
	await page.mouse.move(0, 0);
	await waitForTransitions(page);
	const png = await page.screenshot();
	await sharp(png).png({ palette: true, colours: 256, effort: 10 }).toFile(path);
}

test("the README's boards and Trash, made with the offline engine", async ({ browser }) => {
	test.setTimeout(300_000);
	const context = await openAccount(browser, uniqueEmail("tour"));
	const ids = await createGenerations(context.request, SEEDS);
	const [cliff, storm, harbour, rooftops, lemon, map, fox, lanterns] = ids;
	if (!cliff || !storm || !harbour || !rooftops || !lemon || !map || !fox || !lanterns) {
		throw new Error("eight generations");
	}
	const board = async (name: string, members: string[], visibility = "private") => {
		const made = await call(context.request, "POST", "/api/boards", { name, visibility });
		await call(context.request, "POST", `/api/boards/${made.id}/generations`, { ids: members });
	};
	await call(context.request, "PUT", `/api/generations/${storm}/favorite`, { favorite: true });
	await board("Coast for the client", [cliff, storm, harbour]);
	await board("Mediterranean", [rooftops, lemon, harbour]);
	await board("Show the team", [map, fox, cliff], "shared");
	await call(context.request, "POST", "/api/boards", {
		name: "All lighthouses",
		query: { q: "lighthouse" },
	});
	for (const id of [fox, lanterns, map]) {
		await call(context.request, "DELETE", `/api/generations/${id}`);
	}

	const page = await context.newPage();
	await page.setViewportSize({ width: 1280, height: 800 });
	await mkdir("docs/images", { recursive: true });

	await page.goto("/boards");
	const boards = page.getByRole("list", { name: "Your boards" });
	await expect(boards.getByText("Coast for the client")).toBeVisible();
	await expect(boards.locator("img")).toHaveCount(4);
	await expectImagesLoaded(page);
	// The boards themselves, their names and counts under their covers, below the New board form.
	const listTop = await page
		.getByRole("heading", { name: "Your boards" })
		.evaluate((heading) => heading.getBoundingClientRect().top + window.scrollY);
	await screenshot(page, BOARDS_SCREENSHOT, listTop - 96);

	await page.goto("/trash");
	await expect(page.getByRole("heading", { name: "Trash" })).toBeVisible();
	await expect(page.locator("li[data-trash-id]")).toHaveCount(3);
	await expectImagesLoaded(page);
	await screenshot(page, TRASH_SCREENSHOT);

	for (const path of [BOARDS_SCREENSHOT, TRASH_SCREENSHOT]) {
		const { size } = await sharp(path).metadata();
		expect(size ?? 0).toBeLessThanOrEqual(150_000);
	}
	await context.close();
});
