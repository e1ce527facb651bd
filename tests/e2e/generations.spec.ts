import { mkdir } from "node:fs/promises";
import { type BrowserContext, expect, type Page, type Route, test } from "@playwright/test";
import {
	createGenerations,
	IN_PROGRESS_LABEL,
	isListRequest,
	openAccount,
	openAdministratorAccount,
	revealCard,
	type Seed,
	startGeneration,
	todayLabel,
} from "./support/history";
import {
	clickOutsideDialog,
	expectNoAxeViolations,
	uniqueEmail,
	waitForTransitions,
} from "./support/journeys";

// The admin's password in every journey that signs the admin up (accounts.spec.ts too): whichever
// journey comes first creates the account, the other signs in.
const HISTORY_SCREENSHOT = "docs/images/history.png";
const END_OF_HISTORY = "You have reached the end of the history.";

// Alice's history, oldest first: also what the README's screenshot shows.
const ALICE_SEEDS: Seed[] = [
	{ prompt: "Koi pond in a Japanese garden, autumn leaves", aspectRatio: "--ar 1:1" },
	{ prompt: "Snowy mountain village with warm lights at night", aspectRatio: "--ar 16:9" },
	{ prompt: "A woman soldier in a black suit, portrait photoshoot", aspectRatio: "--ar 2:3" },
	{ prompt: "An anime boy with blue hair, niji 6", aspectRatio: "--ar 1:1" },
	{ prompt: "Desert dunes under a full moon, long shadows", aspectRatio: "--ar 2:3" },
	{ prompt: "Galaxy nebula with a ringed planet, deep space", aspectRatio: "--ar 21:9" },
	{ prompt: "A quiet forest lake at dawn, mist over the water", aspectRatio: "--ar 3:2" },
	{ prompt: "Neon cyberpunk city at night, rain on the streets", aspectRatio: "--ar 9:16" },
	{
		prompt: "An hourglass on a study desk, steampunk, intricate details, 8k",
		aspectRatio: "--ar 1:1",
	},
	{ prompt: "A lighthouse on a cliff at dusk, crashing waves", aspectRatio: "--ar 16:9" },
];
const BOB_SEEDS: Seed[] = [
	{ prompt: "Bob's red bicycle leaning on a brick wall", aspectRatio: "--ar 3:2" },
	{ prompt: "Bob's lemon tree in a terracotta pot", aspectRatio: "--ar 1:1" },
];

async function expectThumbnailsLoaded(page: Page, prompt: string): Promise<void> {
	const card = page.getByRole("article", { name: prompt });
	await expect(card.getByRole("button", { name: /^Preview image/ })).toHaveCount(4);
	await expect
		.poll(() =>
			card
				.locator("img")
				.evaluateAll((images) =>
					images.every((image) => (image as HTMLImageElement).naturalWidth > 0),
				),
		)
		.toBe(true);
}

let aliceEmail = "";
let bobEmail = "";
let aliceContext: BrowserContext | undefined;
let bobContext: BrowserContext | undefined;

test.beforeAll(async ({ browser }) => {
	test.setTimeout(180_000);
	aliceEmail = uniqueEmail("alice");
	bobEmail = uniqueEmail("bob");
	aliceContext = await openAccount(browser, aliceEmail);
	bobContext = await openAccount(browser, bobEmail);
	const alice = aliceContext;
	const bob = bobContext;
	// Each has a quota of their own, so both histories fill at once.
	await Promise.all([
		createGenerations(alice.request, ALICE_SEEDS),
		createGenerations(bob.request, BOB_SEEDS),
	]);
});

test.afterAll(async () => {
	await aliceContext?.close();
	await bobContext?.close();
});

function readAlice(): BrowserContext {
	if (!aliceContext) throw new Error("alice was not set up");
	return aliceContext;
}

test("a person sees only their own generations, grouped by day and counted", async () => {
	const page = await readAlice().newPage();
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto("/generations");

	await expect(page.getByRole("heading", { level: 1, name: "Saved Generations" })).toBeVisible();
	await expect(page.getByText("10 generations · 10 today")).toBeVisible();
	await expect(page.getByText("Admin View")).toHaveCount(0);
	const today = page.getByRole("region", { name: todayLabel() });
	await expect(today.getByRole("heading", { level: 2, name: todayLabel() })).toBeVisible();
	// Newest first: the last one created leads.
	await expect(today.getByRole("article").first()).toHaveAccessibleName(
		ALICE_SEEDS.at(-1)?.prompt ?? "",
	);
	for (const seed of BOB_SEEDS) {
		await expect(page.getByRole("article", { name: seed.prompt })).toHaveCount(0);
	}
	const first = page.getByRole("article", { name: ALICE_SEEDS.at(-1)?.prompt ?? "" });
	await expect(first.getByRole("button", { name: "Open Polling" })).toBeVisible();
	await expect(first.getByRole("button", { name: "Delete" })).toBeEnabled();
	for (const seed of ALICE_SEEDS.slice(-3)) await expectThumbnailsLoaded(page, seed.prompt);

	await expectNoAxeViolations(page);

	// The README's screenshot shows the search box, two favourites and selection mode.
	for (const seed of [ALICE_SEEDS.at(-2), ALICE_SEEDS.at(-3)]) {
		const star = page.getByRole("article", { name: seed?.prompt ?? "" }).getByRole("button", {
			name: "Favourite",
		});
		const saved = page.waitForResponse(
			(response) => response.request().method() === "PUT" && response.ok(),
		);
		await star.click();
		await saved;
		await expect(star).toHaveAttribute("aria-pressed", "true");
	}
	await page.getByRole("button", { name: "Select", exact: true }).click();
	for (const seed of [ALICE_SEEDS.at(-1), ALICE_SEEDS.at(-2)]) {
		await page
			.getByRole("article", { name: seed?.prompt ?? "" })
			.getByRole("checkbox")
			.check();
	}
	await expect(page.getByRole("region", { name: "Selection" })).toContainText("2 selected");
	await page.mouse.move(0, 0);
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	await mkdir("docs/images", { recursive: true });
	await page.screenshot({ path: HISTORY_SCREENSHOT });
	await page.close();
});

test("the admin sees everyone's generations, each card naming its owner", async ({ browser }) => {
	const context = await openAdministratorAccount(browser);
	const page = await context.newPage();
	await page.goto("/generations");

	await expect(page.getByRole("heading", { level: 1, name: "All Generations" })).toBeVisible();
	const main = page.getByRole("main");
	await expect(main.getByText("Admin", { exact: true })).toBeVisible();
	await expect(main.getByText("Admin View")).toBeVisible();
	const summary = main.getByText(/^[\d,]+ generations · [\d,]+ today$/);
	await expect(summary).toBeVisible();
	const total = Number((await summary.textContent())?.split(" ")[0]?.replaceAll(",", ""));
	expect(total).toBeGreaterThanOrEqual(ALICE_SEEDS.length + BOB_SEEDS.length);

	for (const [seed, owner] of [
		[BOB_SEEDS[0], bobEmail],
		[ALICE_SEEDS.at(-1), aliceEmail],
	] as const) {
		const card = await revealCard(page, seed?.prompt ?? "", { owner });
		await expect(card.getByText(owner, { exact: true })).toBeVisible();
	}
	await expectNoAxeViolations(page);
	await context.close();
});

test("Delete moves the card to the Trash at once, with a toast offering Undo, and reloads", async ({
	browser,
}) => {
	const context = await openAccount(browser, uniqueEmail("carol"));
	const [keep, remove] = [
		{ prompt: "Carol keeps this sailing boat at sunrise", aspectRatio: "--ar 3:2" },
		{ prompt: "Carol deletes this old map of an island", aspectRatio: "--ar 1:1" },
	];
	if (!keep || !remove) throw new Error("two seeds");
	await createGenerations(context.request, [keep, remove]);
	const page = await context.newPage();
	await page.goto("/generations");
	await expect(page.getByText("2 generations · 2 today")).toBeVisible();

	const card = page.getByRole("article", { name: remove.prompt });
	// With the Trash, nothing is asked: the toast offers Undo (trash.spec.ts follows it).
	const reload = page.waitForRequest(
		(request) => request.method() === "GET" && isListRequest(new URL(request.url())),
	);
	const deleted = page.waitForResponse(
		(response) => response.request().method() === "DELETE" && response.status() === 200,
	);
	await card.getByRole("button", { name: "Delete" }).click();
	await deleted;
	await reload;

	await expect(page.getByText("Generation deleted successfully")).toBeVisible();
	await expect(page.getByRole("button", { name: "Undo" })).toBeVisible();
	await expectNoAxeViolations(page);
	await expect(card).toHaveCount(0);
	await expect(page.getByRole("article", { name: keep.prompt })).toBeVisible();
	await expect(page.getByText("1 generation · 1 today")).toBeVisible();
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	// Gone on the server too.
	await page.reload();
	await expect(page.getByRole("article", { name: keep.prompt })).toBeVisible();
	await expect(page.getByRole("article", { name: remove.prompt })).toHaveCount(0);
	await context.close();
});

test("Open Polling opens the polling URL in a new tab, or says there is none", async () => {
	const context = readAlice();
	const page = await context.newPage();
	await page.goto("/generations");
	const seed = ALICE_SEEDS.at(-1);
	const card = page.getByRole("article", { name: seed?.prompt ?? "" });

	const popup = context.waitForEvent("page");
	await card.getByRole("button", { name: "Open Polling" }).click();
	const pollingPage = await popup;
	await pollingPage.waitForLoadState();
	expect(new URL(pollingPage.url()).pathname).toMatch(
		/^\/api\/generations\/[0-9a-f-]{36}\/status$/,
	);
	await expect(pollingPage.locator("body")).toContainText('"status":"completed"');
	await pollingPage.close();

	// No API leaves a generation without a polling URL, so the list answer is changed on its way.
	await page.route(
		(url) => isListRequest(url),
		async (route: Route) => {
			const response = await route.fetch();
			const body = (await response.json()) as { items: Array<Record<string, unknown>> };
			body.items = body.items.map((item) => ({ ...item, polling_url: null }));
			await route.fulfill({ response, json: body });
		},
	);
	await page.reload();
	let opened = 0;
	context.on("page", () => {
		opened += 1;
	});
	await card.getByRole("button", { name: "Open Polling" }).click();
	await expect(page.getByText("Polling URL not available for this generation")).toBeVisible();
	expect(opened).toBe(0);
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	await page.close();
});

test("a card image opens a preview with the prompt, date and time, and aspect ratio", async () => {
	const page = await readAlice().newPage();
	await page.goto("/generations");
	const seed = ALICE_SEEDS.at(-1);
	expect(seed?.aspectRatio).toBe("--ar 16:9");
	const card = await revealCard(page, seed?.prompt ?? "");
	const bodyOverflow = () => page.evaluate(() => getComputedStyle(document.body).overflow);

	await card.getByRole("button", { name: "Preview image 2 of 4" }).click();
	const dialog = page.getByRole("dialog", { name: "Image 2 of 4" });
	await expect(dialog).toBeVisible();
	await expect(dialog.getByText(seed?.prompt ?? "", { exact: true })).toBeVisible();
	await expect(
		dialog.getByText(new RegExp(`^${todayLabel()}, \\d{1,2}:\\d{2}\\s?[AP]M$`)),
	).toBeVisible();
	await expect(dialog.getByText("16:9 · Landscape (widescreen)")).toBeVisible();
	const image = dialog.getByRole("img", { name: new RegExp(seed?.prompt ?? "") });
	// The display copy (the original's 1024 px, as WebP), not the thumbnail.
	await expect
		.poll(() =>
			image.evaluate((element) => {
				const picture = element as HTMLImageElement;
				return picture.complete ? picture.currentSrc : "";
			}),
		)
		.toMatch(/-display\.webp$/);
	expect(await bodyOverflow()).toBe("hidden");
	await expectNoAxeViolations(page);

	await page.keyboard.press("Escape");
	await expect(dialog).toHaveCount(0);
	expect(await bodyOverflow()).not.toBe("hidden");

	await card.getByRole("button", { name: "Preview image 1 of 4" }).click();
	await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
	await expect(page.getByRole("dialog")).toHaveCount(0);

	await card.getByRole("button", { name: "Preview image 1 of 4" }).click();
	await expect(page.getByRole("dialog")).toBeVisible();
	await clickOutsideDialog(page, 4, 4);
	await expect(page.getByRole("dialog")).toHaveCount(0);
	await page.close();
});

test("loading, a failed load with Try Again, the empty history, and a card that completes by itself", async ({
	browser,
}) => {
	const context = await openAccount(browser, uniqueEmail("erin"));
	const page = await context.newPage();

	let release: () => void = () => {};
	const held = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.route(isListRequest, async (route) => {
		await held;
		await route.continue();
	});
	await page.goto("/generations");
	await expect(page.getByText("Loading generations")).toBeAttached();
	await expect(page.getByTestId("generation-skeletons").locator(":scope > *")).toHaveCount(8);
	await expectNoAxeViolations(page);
	release();
	await expect(page.getByRole("heading", { name: "No generations found" })).toBeVisible();
	await expect(page.getByText("Your saved AI generations will appear here.")).toBeVisible();
	await expect(page.getByText("0 generations · 0 today")).toBeVisible();
	await expectNoAxeViolations(page);
	await page.unroute(isListRequest);

	await page.route(isListRequest, (route) =>
		route.fulfill({
			status: 503,
			json: {
				success: false,
				error: { code: "SERVICE_UNAVAILABLE", message: "The service is temporarily unavailable." },
			},
		}),
	);
	await page.reload();
	const alert = page.getByRole("alert").filter({ hasText: "Failed to load generations" });
	await expect(alert).toHaveText(/Failed to load generations\. Please try again\./);
	await expectNoAxeViolations(page);
	await page.unroute(isListRequest);
	await alert.getByRole("button", { name: "Try Again" }).click();
	await expect(page.getByRole("heading", { name: "No generations found" })).toBeVisible();

	// A generation still running when the history loads completes on its card, without a reload.
	const prompt = "Erin's paper lanterns over a night river";
	await startGeneration(context.request, { prompt, aspectRatio: "--ar 1:1" });
	await page.reload();
	const card = page.getByRole("article", { name: prompt });
	await expect(card.getByText(IN_PROGRESS_LABEL)).toBeVisible();
	await expect(page.getByText("1 generation · 1 today")).toBeVisible();
	await expectNoAxeViolations(page);
	await expect(card.getByRole("button", { name: /^Preview image/ })).toHaveCount(4, {
		timeout: 20_000,
	});
	await expect(card.getByText(IN_PROGRESS_LABEL)).toHaveCount(0);
	await context.close();
});

test("on a phone, scrolling loads more pages, and the view stays put when cards come and go", async () => {
	const context = readAlice();
	const page = await context.newPage();
	await page.setViewportSize({ width: 360, height: 740 });
	// Ten generations fit one page of 24; smaller pages from the real server make the cursor paging
	// visible without creating a hundred generations.
	const listUrls: URL[] = [];
	let held: Promise<void> | undefined;
	await page.route(isListRequest, async (route) => {
		const url = new URL(route.request().url());
		url.searchParams.set("limit", "4");
		listUrls.push(url);
		await held;
		await route.continue({ url: url.toString() });
	});
	await page.goto("/generations");
	await expect(page.getByRole("article").first()).toBeVisible();
	expect(listUrls).toHaveLength(1);
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

	// At the end of the loaded cards the next page is asked for; while it is on its way the footer
	// says so, and when it arrives the view does not move: its cards appear below.
	let release: () => void = () => {};
	held = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
	await expect(page.getByText("Loading more generations")).toBeAttached();
	expect(listUrls).toHaveLength(2);
	const scrolledTo = await page.evaluate(() => window.scrollY);
	const cardsBefore = await page.locator("article[data-generation-id]").count();
	release();
	held = undefined;
	await expect
		.poll(() => page.locator("article[data-generation-id]").count())
		.toBeGreaterThan(cardsBefore);
	expect(await page.evaluate(() => window.scrollY)).toBe(scrolledTo);

	await expect(async () => {
		await page.mouse.wheel(0, 2_000);
		await expect(page.getByText(END_OF_HISTORY)).toBeVisible({ timeout: 1_000 });
	}).toPass({ timeout: 30_000 });
	expect(listUrls).toHaveLength(3);
	expect(listUrls[1]?.searchParams.get("cursor")).toBeTruthy();
	expect(listUrls[2]?.searchParams.get("cursor")).toBeTruthy();
	await expect(page.getByRole("article", { name: ALICE_SEEDS[0]?.prompt ?? "" })).toBeVisible();

	// Back to the middle of the history: the card at the top of the view is the anchor.
	await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
	const readTopCard = () =>
		page.evaluate(() => {
			const cards = Array.from(document.querySelectorAll("article[data-generation-id]"));
			const card = cards.find((candidate) => candidate.getBoundingClientRect().top >= 100);
			return card
				? { id: card.getAttribute("data-generation-id"), top: card.getBoundingClientRect().top }
				: null;
		});
	await expect.poll(readTopCard).not.toBeNull();
	const before = await readTopCard();
	if (!before?.id) throw new Error("no card in view");
	const anchor = page.locator(`article[data-generation-id="${before.id}"]`);
	const anchorPrompt = await anchor.evaluate((card) => card.querySelector("p")?.textContent ?? "");

	// A new generation arrives at the top (with the reload after a delete) while the card after the
	// anchor is deleted: the anchor must not move.
	await startGeneration(readAlice().request, {
		prompt: "A paper boat on a puddle, arriving while Alice scrolls",
		aspectRatio: "--ar 1:1",
	});
	const below = await page.evaluate((anchorId) => {
		const cards = Array.from(document.querySelectorAll("article[data-generation-id]"));
		const index = cards.findIndex((card) => card.getAttribute("data-generation-id") === anchorId);
		return cards[index + 1]?.getAttribute("data-generation-id") ?? null;
	}, before.id);
	if (!below) throw new Error("no card below the anchor");
	const belowCard = page.locator(`article[data-generation-id="${below}"]`);
	// Listened for before the click: the delete's reload of the first page can answer before a
	// listener added after it would hear it.
	const reloaded = page.waitForResponse(
		(response) =>
			response.request().method() === "GET" &&
			isListRequest(new URL(response.url())) &&
			new URL(response.url()).searchParams.get("cursor") === null,
	);
	await belowCard.getByRole("button", { name: "Delete" }).click();
	// Where the anchor is once the Delete button has been scrolled into view and clicked.
	const anchorTop = await anchor.evaluate((card) => card.getBoundingClientRect().top);
	await expect(page.getByText("Generation deleted successfully")).toBeVisible();
	await reloaded;
	await expect(page.getByText("10 generations · 10 today")).toBeVisible();
	await expect(belowCard).toHaveCount(0);

	// Within a pixel: positions are fractional, scrolling is in whole pixels.
	await expect
		.poll(async () => Math.abs(((await anchor.boundingBox())?.y ?? Number.NaN) - anchorTop))
		.toBeLessThanOrEqual(1.5);
	await expect(anchor).toHaveAccessibleName(anchorPrompt);
	await page.close();
});
