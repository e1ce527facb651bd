import { type Browser, expect, type Page, test } from "@playwright/test";
import { z } from "zod";
import {
	GenerationFamilySchema,
	GenerationSchema,
} from "../../src/shared/generations/generation-responses";
import {
	imageUpscaleResamples,
	imageUpscaleResamplesShort,
	imageUpscaleStarted,
	imageVaryStarted,
} from "../../src/shared/i18n/messages";
import { E2E_BASE_URL } from "./support/constants";
import { createGenerations, IN_PROGRESS_LABEL, openAccount, revealCard } from "./support/history";
import { dropImageOnPromptPanel } from "./support/image-input";
import { expectNoAxeViolations, uniqueEmail, waitForTransitions } from "./support/journeys";

// Making images from an image against the real server and the offline engine (which takes an
// image and upscales by 2 and 4, by resampling): Vary and Upscale of a result and from a history
// card's menu, Edit with a reference, an upload dropped on the form, and the family links of the
// preview.

const CreatedSchema = z.object({ id: z.string() });

const FAMILY_SCREENSHOT = "docs/images/family.png";

function resultPanel(page: Page) {
	return page.getByRole("region", { name: "Result" });
}

function imageActions(page: Page) {
	return resultPanel(page).getByRole("group", { name: /^Make more from this image/ });
}

/** The answer to the next start (POST /api/generations). */
function waitForStart(page: Page) {
	return page.waitForResponse(
		(response) =>
			new URL(response.url()).pathname === "/api/generations" &&
			response.request().method() === "POST",
	);
}

async function readGenerationOf(page: Page, id: string) {
	return GenerationSchema.parse(await (await page.request.get(`/api/generations/${id}`)).json());
}

async function openSignedIn(browser: Browser, name: string) {
	const context = await openAccount(browser, uniqueEmail(name));
	const signedIn = await context.newPage();
	await signedIn.setViewportSize({ width: 1280, height: 900 });
	return { context, page: signedIn };
}

test("Vary and Upscale of a result start at once and show their progress and images", async ({
	browser,
}) => {
	const { page } = await openSignedIn(browser, "vary");
	await page.goto("/");
	await page.getByRole("textbox", { name: "Prompt" }).fill("A lighthouse in a storm");
	await page.getByRole("button", { name: "Generate" }).click();
	await expect(resultPanel(page).getByRole("heading", { name: /\d images?$/ })).toBeVisible({
		timeout: 30_000,
	});

	const vary = page.waitForResponse(
		(response) =>
			response.url().endsWith("/api/generations") && response.request().method() === "POST",
	);
	await imageActions(page).getByRole("button", { name: "Vary (subtle)" }).click();
	expect((await vary).status()).toBe(201);
	await expect(resultPanel(page).getByRole("heading", { name: /\d images?$/ })).toBeVisible({
		timeout: 30_000,
	});
	await expect(resultPanel(page).getByText("A lighthouse in a storm")).toBeVisible();
	await expectNoAxeViolations(page);

	// The offline engine's upscale resamples, and says so where it is chosen.
	const upscale = imageActions(page).getByRole("button", { name: "Upscale 2×" });
	await expect(upscale).toHaveAccessibleDescription(imageUpscaleResamples());
	await expect(imageActions(page).getByText(imageUpscaleResamples())).toBeVisible();
	const started = waitForStart(page);
	await upscale.click();
	expect((await started).status()).toBe(201);
	// Its progress shows before its result (the engine takes a few seconds), and passes axe.
	const progress = resultPanel(page).getByRole("progressbar");
	await expect(progress).toBeVisible();
	await expect(resultPanel(page).getByRole("heading", { name: "1 image" })).toHaveCount(0);
	await expectNoAxeViolations(page);
	await expect(resultPanel(page).getByRole("heading", { name: "1 image" })).toBeVisible({
		timeout: 30_000,
	});
	await expect(progress).toBeHidden();
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
});

test("Vary and Upscale from a history card's menu start at once and show as running cards", async ({
	browser,
}) => {
	const { context, page } = await openSignedIn(browser, "card-menu");
	const prompt = "A windmill at the edge of a tulip field";
	const [parentId = ""] = await createGenerations(context.request, [
		{ prompt, aspectRatio: "--ar 3:2", count: 2 },
	]);
	const parent = await readGenerationOf(page, parentId);
	await page.goto("/generations");
	const cardOf = (id: string) => page.locator(`article[data-generation-id="${id}"]`);
	const openMenu = async () => {
		await cardOf(parentId).getByRole("button", { name: "More actions" }).click();
		const menu = page.getByRole("menu").first();
		await expect(menu).toBeVisible();
		return menu;
	};

	// Vary (subtle) of the second image: the card's menu names each image.
	let menu = await openMenu();
	await menu.getByRole("menuitem", { name: "Vary (subtle)" }).click();
	let started = waitForStart(page);
	await page
		.getByRole("menu", { name: "Vary (subtle)" })
		.getByRole("menuitem", { name: "Image 2" })
		.click();
	const varyAnswer = await started;
	expect(varyAnswer.status()).toBe(201);
	expect(varyAnswer.request().postDataJSON()).toEqual({
		action: "vary-subtle",
		reference: { generationId: parentId, imageIndex: 1 },
	});
	const varyId = CreatedSchema.parse(await varyAnswer.json()).id;
	await expect(page.getByText(imageVaryStarted())).toBeVisible();
	const varied = cardOf(varyId);
	await expect(varied.getByText(IN_PROGRESS_LABEL)).toBeVisible();
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	await expect(varied.getByRole("button", { name: /^Preview image/ })).toHaveCount(4, {
		timeout: 30_000,
	});

	// Upscale 2× of the first image, said to be a resample where it is chosen.
	menu = await openMenu();
	const upscaleItem = menu.getByRole("menuitem", { name: "Upscale 2×" });
	await expect(upscaleItem).toHaveAccessibleDescription(imageUpscaleResamplesShort());
	await upscaleItem.click();
	started = waitForStart(page);
	await page
		.getByRole("menu", { name: "Upscale 2×" })
		.getByRole("menuitem", { name: "Image 1" })
		.click();
	const upscaleAnswer = await started;
	expect(upscaleAnswer.status()).toBe(201);
	expect(upscaleAnswer.request().postDataJSON()).toEqual({
		action: "upscale",
		reference: { generationId: parentId, imageIndex: 0 },
		factor: 2,
	});
	const upscaleId = CreatedSchema.parse(await upscaleAnswer.json()).id;
	await expect(page.getByText(imageUpscaleStarted())).toBeVisible();
	const upscaled = cardOf(upscaleId);
	await expect(upscaled.getByText(IN_PROGRESS_LABEL)).toBeVisible();
	await expect(upscaled.getByRole("button", { name: /^Preview image/ })).toHaveCount(1, {
		timeout: 30_000,
	});
	await waitForTransitions(page);
	await expectNoAxeViolations(page);

	// Twice the width and height of the image it was made from; each image's family is its own.
	const [first] = parent.images;
	const [large] = (await readGenerationOf(page, upscaleId)).images;
	expect([large?.width, large?.height]).toEqual([
		(first?.width ?? 0) * 2,
		(first?.height ?? 0) * 2,
	]);
	const familyOf = async (imageIndex: number) =>
		GenerationFamilySchema.parse(
			await (
				await page.request.get(`/api/generations/${parentId}/family?imageIndex=${imageIndex}`)
			).json(),
		).children.map((child) => child.id);
	expect(await familyOf(0)).toEqual([upscaleId]);
	expect(await familyOf(1)).toEqual([varyId]);
});

test("Edit from the history opens the generator with the image as the reference", async ({
	browser,
}) => {
	const { context, page } = await openSignedIn(browser, "edit");
	const [id] = await createGenerations(context.request, [
		{ prompt: "A harbour at dawn", aspectRatio: "--ar 3:2", count: 1 },
	]);
	await page.goto("/generations");
	const card = await revealCard(page, "A harbour at dawn");
	await card.getByRole("button", { name: "More actions" }).click();
	await page.getByRole("menuitem", { name: "Edit", exact: true }).click();

	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue("A harbour at dawn");
	await expect(page.getByRole("img", { name: "Reference image" })).toHaveAttribute(
		"src",
		new RegExp(`/api/images/generations/${id}/`),
	);
	await expect(page.getByRole("slider", { name: "Reference strength" })).toBeVisible();
	await expectNoAxeViolations(page);

	await page.getByRole("textbox", { name: "Prompt" }).fill("A harbour at dawn, in winter");
	const start = page.waitForResponse(
		(response) =>
			response.url().endsWith("/api/generations") && response.request().method() === "POST",
	);
	await page.getByRole("button", { name: "Generate" }).click();
	expect((await start).status()).toBe(201);
	await expect(resultPanel(page).getByRole("heading", { name: /\d images?$/ })).toBeVisible({
		timeout: 30_000,
	});
});

test("an image dropped on the prompt panel is uploaded and becomes the reference", async ({
	browser,
}) => {
	const { page } = await openSignedIn(browser, "drop");
	await page.goto("/");
	await expect(page.getByRole("button", { name: "Add reference image" })).toBeVisible();

	const upload = await dropImageOnPromptPanel(page, { width: 64, height: 48 });
	expect(upload.status()).toBe(201);
	const thumbnail = page.getByRole("img", { name: "Reference image" });
	await expect(thumbnail).toHaveAttribute("src", /^\/api\/uploads\/[^/]+\/image$/);
	// The owner's copy is served to its owner.
	const src = await thumbnail.getAttribute("src");
	expect((await page.request.get(src ?? "")).status()).toBe(200);
	await expectNoAxeViolations(page);

	await page.getByRole("button", { name: "Remove reference" }).click();
	await expect(thumbnail).toHaveCount(0);
});

test("the preview's family links open the original and what was made from it", async ({
	browser,
}) => {
	const { context, page } = await openSignedIn(browser, "family");
	const [parentId] = await createGenerations(context.request, [
		{ prompt: "A heron in the reeds", aspectRatio: "--ar 1:1", count: 1 },
	]);
	const varied = await context.request.post("/api/generations", {
		data: { action: "vary-strong", reference: { generationId: parentId, imageIndex: 0 } },
		headers: { origin: E2E_BASE_URL },
	});
	expect(varied.status()).toBe(201);
	const childId = CreatedSchema.parse(await varied.json()).id;
	await expect
		.poll(
			async () =>
				GenerationSchema.parse(
					await (await context.request.get(`/api/generations/${childId}`)).json(),
				).status,
			{ timeout: 30_000 },
		)
		.toBe("completed");

	await page.goto("/generations");
	const childCard = page.locator(`article[data-generation-id="${childId}"]`);
	await childCard.getByRole("button", { name: /^Preview image 1 of/ }).click();
	const dialog = page.getByRole("dialog");
	const madeFrom = dialog.getByRole("region", { name: "Made from", exact: true });
	await expect(madeFrom).toBeVisible();
	await waitForTransitions(page);
	await expectNoAxeViolations(page);

	// The README shows the family as a person sees it.
	await page.mouse.move(0, 0);
	await page.screenshot({ path: FAMILY_SCREENSHOT });

	await madeFrom.getByRole("button", { name: "Open the original: A heron in the reeds" }).click();
	const children = dialog.getByRole("region", { name: "Made from this" });
	await expect(children).toBeVisible();
	await expect(dialog.getByRole("region", { name: "Made from", exact: true })).toHaveCount(0);

	await children.getByRole("button", { name: "Open Vary (strong): A heron in the reeds" }).click();
	await expect(dialog.getByRole("region", { name: "Made from", exact: true })).toBeVisible();

	// Deleting the original: the child keeps its images and says so.
	expect(
		(
			await context.request.delete(`/api/generations/${parentId}?permanent=true`, {
				headers: { origin: E2E_BASE_URL },
			})
		).status(),
	).toBe(200);
	const child = GenerationSchema.parse(
		await (await context.request.get(`/api/generations/${childId}`)).json(),
	);
	expect(child.parent).toEqual({
		generationId: parentId,
		imageIndex: 0,
		action: "vary-strong",
		exists: false,
	});
	await page.reload();
	await page
		.locator(`article[data-generation-id="${childId}"]`)
		.getByRole("button", { name: /^Preview image 1 of/ })
		.click();
	await expect(page.getByRole("dialog").getByText("The original was deleted")).toBeVisible();
});

test("signed out: the history redirects, and the new routes answer 401", async ({
	page,
	request,
}) => {
	await page.goto("/generations");
	await expect(page).toHaveURL(/\/login$/);
	const family = await request.get("/api/generations/00000000-0000-4000-8000-000000000001/family");
	expect(family.status()).toBe(401);
	const upload = await request.post("/api/uploads", {
		multipart: { image: { name: "a.png", mimeType: "image/png", buffer: Buffer.from("x") } },
		headers: { origin: E2E_BASE_URL },
	});
	expect(upload.status()).toBe(401);
});
