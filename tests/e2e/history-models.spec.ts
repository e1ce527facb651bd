import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { z } from "zod";
import { GenerationSchema } from "../../src/shared/generations/generation-responses";
import { ModelsResponseSchema } from "../../src/shared/generations/models";
import { createGenerations, openAccount, type Seed } from "./support/history";
import { expectNoAxeViolations, uniqueEmail, waitForTransitions } from "./support/journeys";

// The history against the real server with two models of the offline engine
// (support/models.json: `local`, the default, and `sketch`, one or two images and no negative
// prompt): each card names its model, Use settings hands the whole recipe to the generator, Rerun
// makes the same again with another seed, and the model filter lives in the address.

const SKETCH_SEED: Seed = {
	prompt: "A heron in the reeds, ink sketch",
	aspectRatio: "--ar 3:2",
	model: "sketch",
	count: 2,
};
/** The seed asked for, where the sketch model takes one (its provider says whether it does). */
const CHOSEN_SEED = 424242;
const LOCAL_SEED: Seed = { prompt: "A heron at sunrise, oil painting", aspectRatio: "--ar 3:2" };

const CreatedSchema = z.object({ id: z.string() });

/** Whether the sketch model takes a seed, as GET /api/models says. */
async function readSketchTakesSeed(request: APIRequestContext): Promise<boolean> {
	const response = await request.get("/api/models");
	const { models } = ModelsResponseSchema.parse(await response.json());
	const sketch = models.find((model) => model.id === "sketch");
	if (!sketch) throw new Error("the journeys' server offers no sketch model");
	return sketch.seed;
}

async function openSeededHistory(browser: Browser, name: string, seeds: Seed[]) {
	const account = await openAccount(browser, uniqueEmail(name));
	const takesSeed = await readSketchTakesSeed(account.request);
	const withSeeds = seeds.map((seed) =>
		seed.model === "sketch" && takesSeed ? { ...seed, seed: CHOSEN_SEED } : seed,
	);
	const ids = await createGenerations(account.request, withSeeds);
	const page = await account.newPage();
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto("/generations");
	const noun = seeds.length === 1 ? "generation" : "generations";
	await expect(page.getByText(`${seeds.length} ${noun} · ${seeds.length} today`)).toBeVisible();
	return { context: account, page, ids };
}

async function readGeneration(request: APIRequestContext, id: string) {
	const response = await request.get(`/api/generations/${id}`);
	expect(response.ok()).toBe(true);
	return GenerationSchema.parse(await response.json());
}

function card(page: Page, prompt: string) {
	return page.getByRole("article", { name: prompt });
}

async function openCardMenu(page: Page, prompt: string) {
	await card(page, prompt).getByRole("button", { name: "More actions" }).click();
	const menu = page.getByRole("menu");
	await expect(menu).toBeVisible();
	return menu;
}

test("Use settings opens the generator with the generation's model, image count and seed", async ({
	browser,
}) => {
	const { context, page, ids } = await openSeededHistory(browser, "uma", [SKETCH_SEED]);
	const [id] = ids;
	if (!id) throw new Error("no generation made");
	const { settings } = await readGeneration(context.request, id);
	await expect(card(page, SKETCH_SEED.prompt).getByText("Quick sketch")).toBeVisible();
	await expectNoAxeViolations(page);

	const menu = await openCardMenu(page, SKETCH_SEED.prompt);
	const expected = new URLSearchParams({
		prompt: SKETCH_SEED.prompt,
		ratio: "3:2",
		model: "sketch",
		count: "2",
	});
	// The seed used, where the model takes one (the one asked for).
	if (settings.seed !== null) expected.set("seed", String(settings.seed));
	const useSettings = menu.getByRole("menuitem", { name: "Use settings" });
	await expect(useSettings).toHaveAttribute("href", `/?${expected}`);
	// The generator reads the address once and then clears it: catch it as it opens.
	const opened = page.waitForURL((url) => url.pathname === "/" && url.search === `?${expected}`);
	await useSettings.click();
	await opened;
	await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue(SKETCH_SEED.prompt);
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	await context.close();
});

test("Rerun makes a new generation with the same model and settings and another seed", async ({
	browser,
}) => {
	const { context, page, ids } = await openSeededHistory(browser, "rex", [SKETCH_SEED]);
	const [firstId] = ids;
	if (!firstId) throw new Error("no generation made");

	const created = page.waitForResponse(
		(response) => response.request().method() === "POST" && response.status() === 201,
	);
	await (await openCardMenu(page, SKETCH_SEED.prompt))
		.getByRole("menuitem", { name: "Rerun" })
		.click();
	const answer = await created;
	// The request names the model and its settings, and no seed: the server draws a new one.
	expect(answer.request().postDataJSON()).toEqual({
		prompt: SKETCH_SEED.prompt,
		aspectRatio: "--ar 3:2",
		model: "sketch",
		count: 2,
		negativePrompt: null,
		quality: null,
	});
	await expect(page.getByText("Rerun started")).toBeVisible();
	await expect(page.getByText("2 generations · 2 today")).toBeVisible();
	const newest = page.getByRole("article").first();
	await expect(newest.getByText("Quick sketch")).toBeVisible();
	await expect(newest.getByRole("button", { name: /^Preview image/ })).toHaveCount(2, {
		timeout: 30_000,
	});
	await waitForTransitions(page);
	await expectNoAxeViolations(page);

	const { id } = CreatedSchema.parse(await answer.json());
	const original = await readGeneration(context.request, firstId);
	const rerun = await readGeneration(context.request, id);
	expect(rerun.model).toEqual({ id: "sketch", label: "Quick sketch" });
	expect(rerun.settings).toMatchObject({ count: 2, negativePrompt: null, quality: null });
	// Another seed where the model takes one; none where it takes none.
	if (original.settings.seed === null) expect(rerun.settings.seed).toBeNull();
	else expect(rerun.settings.seed).not.toBe(original.settings.seed);
	await context.close();
});

test("the model filter narrows the history, lives in the address and survives a reload", async ({
	browser,
}) => {
	const { context, page } = await openSeededHistory(browser, "mo", [SKETCH_SEED, LOCAL_SEED]);
	const filter = page.getByRole("combobox", { name: "Model" });
	await expect(filter.getByRole("option")).toHaveText([
		"All models",
		"Offline engine",
		"Quick sketch",
	]);

	await filter.selectOption({ label: "Quick sketch" });
	await expect(page).toHaveURL(/\/generations\?model=sketch$/);
	await expect(page.getByText("1 generation matches · 1 today")).toBeVisible();
	await expect(page.getByRole("article")).toHaveCount(1);
	await expect(card(page, SKETCH_SEED.prompt)).toBeVisible();
	await expectNoAxeViolations(page);

	await page.reload();
	await expect(page.getByText("1 generation matches · 1 today")).toBeVisible();
	await expect(page.getByRole("combobox", { name: "Model" })).toHaveValue("sketch");
	await expect(card(page, SKETCH_SEED.prompt)).toBeVisible();

	await page.getByRole("combobox", { name: "Model" }).selectOption({ label: "All models" });
	await expect(page).toHaveURL(/\/generations$/);
	await expect(page.getByText("2 generations · 2 today")).toBeVisible();

	// The filter has its place before the models arrive: a toolbar row appearing late would push
	// the history down under the reader (on a phone, by a whole row).
	let releaseModels = () => {};
	const modelsHeld = new Promise<void>((resolve) => {
		releaseModels = resolve;
	});
	await page.route("**/api/models", async (route) => {
		await modelsHeld;
		await route.continue();
	});
	await page.reload();
	await expect(page.getByText("2 generations · 2 today")).toBeVisible();
	await expect(page.getByRole("combobox", { name: "Model" })).toBeVisible();
	releaseModels();
	await expect(page.getByRole("combobox", { name: "Model" }).getByRole("option")).toHaveCount(3);
	await context.close();
});
