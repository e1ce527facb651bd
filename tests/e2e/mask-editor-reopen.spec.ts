import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import {
	type Generation,
	GenerationSchema,
} from "../../src/shared/generations/generation-responses";
import {
	editorTitleRegion,
	generatorReferenceImage,
	imageMadeFromUpload,
} from "../../src/shared/i18n/messages";
import { E2E_BASE_URL } from "./support/constants";
import { createGenerations, openAccount, revealCard } from "./support/history";
import { dropImageOnPromptPanel } from "./support/image-input";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// The mask editor beyond a first edit, against the real server and the offline engine: Use
// settings on an Edit region result reopens the editor with the very mask it was made with, and an
// uploaded reference is edited from the generator into a result Made from it, whose Use settings
// reopens the editor on that upload.

async function readGeneration(request: APIRequestContext, id: string): Promise<Generation> {
	return GenerationSchema.parse(await (await request.get(`/api/generations/${id}`)).json());
}

async function waitForCompleted(request: APIRequestContext, id: string): Promise<Generation> {
	await expect
		.poll(async () => (await readGeneration(request, id)).status, { timeout: 30_000 })
		.toBe("completed");
	return readGeneration(request, id);
}

async function upload(request: APIRequestContext, png: Buffer): Promise<string> {
	const answer = await request.post("/api/uploads", {
		multipart: { image: { name: "mask.png", mimeType: "image/png", buffer: png } },
		headers: { origin: E2E_BASE_URL },
	});
	expect(answer.status()).toBe(201);
	return ((await answer.json()) as { uploadId: string }).uploadId;
}

/** A mask's grey, one byte a pixel, read from the server's copy. */
async function readMask(request: APIRequestContext, url: string | null | undefined) {
	const answer = await request.get(url ?? "");
	expect(answer.status()).toBe(200);
	return sharp(await answer.body())
		.extractChannel(0)
		.raw()
		.toBuffer();
}

function waitForStart(page: Page) {
	return page.waitForResponse(
		(response) =>
			new URL(response.url()).pathname === "/api/generations" &&
			response.request().method() === "POST",
	);
}

test("Use settings on an Edit region result reopens the editor with the same mask, pixel for pixel", async ({
	browser,
}) => {
	const context = await openAccount(browser, uniqueEmail("mask-reopen"));
	const [sourceId] = await createGenerations(context.request, [
		{ prompt: "A harbour at dawn", aspectRatio: "--ar 1:1", count: 1 },
	]);
	if (!sourceId) throw new Error("no source generation");
	const source = (await waitForCompleted(context.request, sourceId)).images[0];
	if (!source) throw new Error("the source has no image");
	// A mask of the source's size: a soft-edged band across its lower half.
	const { width, height } = source;
	const band = await sharp({
		create: { width, height: Math.round(height / 4), channels: 3, background: "#fff" },
	})
		.png()
		.toBuffer();
	const maskPng = await sharp({ create: { width, height, channels: 3, background: "#000" } })
		.composite([{ input: band, left: 0, top: Math.round(height / 2) }])
		.blur(4)
		.png()
		.toBuffer();
	const started = await context.request.post("/api/generations", {
		data: {
			action: "edit-region",
			reference: { generationId: sourceId, imageIndex: 0 },
			mask: { uploadId: await upload(context.request, maskPng) },
			prompt: "A lantern on the quay",
			count: 1,
		},
		headers: { origin: E2E_BASE_URL },
	});
	expect(started.status()).toBe(201);
	const editId = ((await started.json()) as { id: string }).id;
	const edit = await waitForCompleted(context.request, editId);
	const recorded = await readMask(context.request, edit.region?.maskUrl);

	const page = await context.newPage();
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto("/generations");
	const card = await revealCard(page, "A lantern on the quay");
	await card.getByRole("button", { name: "More actions" }).click();
	await page.getByRole("menuitem", { name: "Use settings" }).click();
	await expect(page).toHaveURL(
		new RegExp(`/edit\\?generation=${sourceId}&image=0&tool=region&reopen=${editId}`),
	);
	await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue("A lantern on the quay");
	// The recorded mask is painted again, undoably, as a stroke would be.
	await expect(page.getByRole("button", { name: "Undo" })).toBeEnabled({ timeout: 10_000 });
	await expectNoAxeViolations(page);

	// Sent again untouched, it is the same mask.
	const restarted = waitForStart(page);
	await page.getByRole("button", { name: "Generate" }).click();
	const againId = ((await (await restarted).json()) as { id: string }).id;
	const again = await readGeneration(context.request, againId);
	expect(await readMask(context.request, again.region?.maskUrl)).toEqual(recorded);
	await context.close();
});

test("an uploaded reference, edited from the generator, makes a result Made from it, whose Use settings reopens the editor on that upload", async ({
	browser,
}) => {
	const context = await openAccount(browser, uniqueEmail("mask-upload"));
	const page = await context.newPage();
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto("/");
	await expect(page.getByRole("button", { name: "Add reference image" })).toBeVisible();
	const uploaded = await dropImageOnPromptPanel(page, { width: 96, height: 64 });
	expect(uploaded.status()).toBe(201);
	await expect(page.getByRole("img", { name: generatorReferenceImage() })).toBeVisible();

	await page.getByRole("link", { name: editorTitleRegion() }).click();
	await expect(page).toHaveURL(/\/edit\?upload=[^&]+&tool=region/);
	const canvas = page.getByRole("application", { name: "Image and mask" });
	await expect(canvas).toBeVisible();
	const box = await canvas.boundingBox();
	if (!box) throw new Error("the canvas is not laid out");
	await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.5, { steps: 8 });
	await page.mouse.up();
	await page.getByRole("textbox", { name: "Prompt" }).fill("A kite over the sketch");
	const started = waitForStart(page);
	await page.getByRole("button", { name: "Generate" }).click();
	const id = ((await (await started).json()) as { id: string }).id;
	await expect(page).toHaveURL(/\/generations$/);

	const result = await waitForCompleted(context.request, id);
	expect(result.parent).toMatchObject({ action: "edit-region", upload: true });
	const uploadId = result.parent && "upload" in result.parent ? result.parent.uploadId : undefined;
	expect(uploadId).toBeTruthy();
	expect(result.images[0]).toMatchObject({ width: 96, height: 64 });
	const card = await revealCard(page, "A kite over the sketch");
	await card.getByRole("button", { name: /^Preview image 1/ }).click();
	const dialog = page.getByRole("dialog");
	await expect(dialog.getByText(imageMadeFromUpload())).toBeVisible();
	await expectNoAxeViolations(page);

	// Its Use settings reopens the editor on that same upload, with the mask it was made with.
	await dialog.getByRole("link", { name: /Use settings/ }).click();
	await expect(page).toHaveURL(new RegExp(`/edit\\?upload=${uploadId}&tool=region&reopen=${id}`));
	await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue("A kite over the sketch");
	await expect(page.getByRole("application", { name: "Image and mask" })).toBeVisible();
	await expect(page.getByRole("button", { name: "Undo" })).toBeEnabled({ timeout: 10_000 });
	await expectNoAxeViolations(page);
	const restarted = waitForStart(page);
	await page.getByRole("button", { name: "Generate" }).click();
	const againId = ((await (await restarted).json()) as { id: string }).id;
	const again = await readGeneration(context.request, againId);
	expect(again.parent).toEqual({ action: "edit-region", upload: true, uploadId });
	expect(await readMask(context.request, again.region?.maskUrl)).toEqual(
		await readMask(context.request, result.region?.maskUrl),
	);
	await context.close();
});
