import { type Browser, expect, type Page, test } from "@playwright/test";
import { GenerationSchema } from "../../src/shared/generations/generation-responses";
import { editorTitleRegion, imageBefore, imageMadeFrom } from "../../src/shared/i18n/messages";
import { createGenerations, openAccount, revealCard } from "./support/history";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// The mask editor against the real server and the offline engine, which repaints only the masked
// area and paints an expansion's new area: painting, erasing, undo, redo, invert, zoom and pan,
// Generate, and the result Made from its source; Expand to 16:9 from a square; a phone by touch;
// the keyboard alone.

const SCREENSHOT_PATH = "docs/images/mask-editor.png";

async function openWithSource(
	browser: Browser,
	name: string,
	viewport = { width: 1280, height: 900 },
) {
	const context = await openAccount(browser, uniqueEmail(name));
	const [sourceId] = await createGenerations(context.request, [
		{ prompt: "A harbour at dawn", aspectRatio: "--ar 1:1", count: 1 },
	]);
	if (!sourceId) throw new Error("no source generation");
	await expect
		.poll(async () => {
			const answer = await context.request.get(`/api/generations/${sourceId}`);
			return GenerationSchema.parse(await answer.json()).status;
		})
		.toBe("completed");
	const page = await context.newPage();
	await page.setViewportSize(viewport);
	return { context, page, sourceId };
}

function canvas(page: Page) {
	return page.getByRole("application", { name: "Image and mask" });
}

/** Whether Undo can be pressed: a stroke (or Invert, Clear) was recorded. */
function undoButton(page: Page) {
	return page.getByRole("button", { name: "Undo" });
}

async function strokeAcross(
	page: Page,
	from: { x: number; y: number },
	to: { x: number; y: number },
) {
	const box = await canvas(page).boundingBox();
	if (!box) throw new Error("the canvas is not laid out");
	await page.mouse.move(box.x + box.width * from.x, box.y + box.height * from.y);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width * to.x, box.y + box.height * to.y, { steps: 8 });
	await page.mouse.up();
}

/** The share of the view's canvas painted in the mask's colour, read from its pixels. */
async function readMaskedShare(page: Page): Promise<number> {
	return canvas(page)
		.locator("canvas")
		.evaluate((element: HTMLCanvasElement) => {
			const context = element.getContext("2d");
			if (!context) return 0;
			const { data } = context.getImageData(0, 0, element.width, element.height);
			let masked = 0;
			for (let index = 0; index < data.length; index += 4) {
				const [red = 0, green = 0, blue = 0] = [data[index], data[index + 1], data[index + 2]];
				if (red > 120 && blue > 60 && green < red * 0.6) masked += 1;
			}
			return masked / (data.length / 4);
		});
}

test("paint, erase, undo, redo, invert, zoom and pan, then Generate: the result is Made from its source", async ({
	browser,
}) => {
	const { page, sourceId } = await openWithSource(browser, "mask-editor");
	await page.goto("/generations");
	const card = await revealCard(page, "A harbour at dawn");
	await card.getByRole("button", { name: "More actions" }).click();
	await page.getByRole("menuitem", { name: editorTitleRegion() }).click();
	await expect(page).toHaveURL(new RegExp(`/edit\\?generation=${sourceId}&image=0&tool=region`));
	await expect(canvas(page)).toBeVisible();
	await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue("A harbour at dawn");
	await expectNoAxeViolations(page);

	const empty = await readMaskedShare(page);
	await strokeAcross(page, { x: 0.3, y: 0.5 }, { x: 0.7, y: 0.5 });
	const painted = await readMaskedShare(page);
	expect(painted).toBeGreaterThan(empty);

	await page.keyboard.press("e");
	await expect(page.getByRole("button", { name: "Eraser" })).toHaveAttribute(
		"aria-pressed",
		"true",
	);
	await strokeAcross(page, { x: 0.3, y: 0.5 }, { x: 0.5, y: 0.5 });
	expect(await readMaskedShare(page)).toBeLessThan(painted);
	await page.keyboard.press("Control+z");
	expect(await readMaskedShare(page)).toBeCloseTo(painted, 3);
	await page.keyboard.press("Control+Shift+z");
	expect(await readMaskedShare(page)).toBeLessThan(painted);
	await page.keyboard.press("Control+z");

	await page.getByRole("button", { name: "Invert" }).click();
	expect(await readMaskedShare(page)).toBeGreaterThan(painted);
	await page.getByRole("button", { name: "Invert" }).click();

	const zoom = page.getByRole("status", { name: "Zoom" }).or(page.locator("output"));
	const fitted = await zoom.first().textContent();
	const box = await canvas(page).boundingBox();
	if (!box) throw new Error("the canvas is not laid out");
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
	await page.mouse.wheel(0, -300);
	await expect(zoom.first()).not.toHaveText(fitted ?? "");
	// Space-drag pans; Fit brings the whole image back.
	await page.keyboard.down("Space");
	await page.mouse.down();
	await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 40, { steps: 4 });
	await page.mouse.up();
	await page.keyboard.up("Space");
	await page.getByRole("button", { name: "Fit" }).click();
	await expect(zoom.first()).toHaveText(fitted ?? "");
	await page.screenshot({ path: SCREENSHOT_PATH });

	await page.getByRole("textbox", { name: "Prompt" }).fill("A red boat in the harbour");
	await page.getByRole("button", { name: "Generate" }).click();
	await expect(page).toHaveURL(/\/generations$/);
	const result = await revealCard(page, "A red boat in the harbour");
	await expect(result.getByRole("button", { name: /^Preview image 1/ })).toBeVisible({
		timeout: 30_000,
	});
	await result.getByRole("button", { name: /^Preview image 1/ }).click();
	const dialog = page.getByRole("dialog");
	await expect(dialog.getByRole("region", { name: imageMadeFrom() })).toBeVisible();
	await dialog.getByRole("button", { name: imageBefore() }).click();
	await expect(dialog.getByRole("img", { name: /^Before: / })).toBeVisible();
	await expectNoAxeViolations(page);
});

test("Expand makes a square 16:9, the image centred, and the result is that wide", async ({
	browser,
}) => {
	const { page, sourceId } = await openWithSource(browser, "mask-expand");
	await page.goto(`/edit?generation=${sourceId}&image=0&tool=expand`);
	await page.getByRole("radio", { name: /^16:9/ }).check();
	const source = GenerationSchema.parse(
		await (await page.request.get(`/api/generations/${sourceId}`)).json(),
	).images[0];
	if (!source) throw new Error("the source has no image");
	await expect(
		page.getByText(`${Math.round((source.height * 16) / 9)} × ${source.height} px`, {
			exact: true,
		}),
	).toBeVisible();
	await expectNoAxeViolations(page);
	const started = page.waitForResponse(
		(response) =>
			new URL(response.url()).pathname === "/api/generations" &&
			response.request().method() === "POST",
	);
	await page.getByRole("button", { name: "Generate" }).click();
	const { id } = (await (await started).json()) as { id: string };
	await expect
		.poll(
			async () =>
				GenerationSchema.parse(await (await page.request.get(`/api/generations/${id}`)).json())
					.status,
			{ timeout: 30_000 },
		)
		.toBe("completed");
	const result = GenerationSchema.parse(
		await (await page.request.get(`/api/generations/${id}`)).json(),
	);
	const image = result.images[0];
	expect(image && image.width / image.height).toBeCloseTo(16 / 9, 1);
	expect(result.parent).toMatchObject({ generationId: sourceId, action: "expand" });
});

test("on a phone, one finger paints and two fingers zoom", async ({ browser }) => {
	const signedIn = await openAccount(browser, uniqueEmail("mask-phone"));
	const [ownSource] = await createGenerations(signedIn.request, [
		{ prompt: "A harbour at dawn", aspectRatio: "--ar 1:1", count: 1 },
	]);
	// The account's cookies, on a touch screen.
	const state = await signedIn.storageState();
	await signedIn.close();
	const touch = await browser.newContext({
		viewport: { width: 390, height: 844 },
		hasTouch: true,
		isMobile: true,
		storageState: state,
	});
	const page = await touch.newPage();
	await expect
		.poll(
			async () =>
				GenerationSchema.parse(
					await (await page.request.get(`/api/generations/${ownSource}`)).json(),
				).status,
		)
		.toBe("completed");
	await page.goto(`/edit?generation=${ownSource}&image=0&tool=region`);
	await expect(canvas(page)).toBeVisible();
	const box = await canvas(page).boundingBox();
	if (!box) throw new Error("the canvas is not laid out");
	const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
	const client = await page.context().newCDPSession(page);
	const touchAt = (
		type: "touchStart" | "touchMove" | "touchEnd",
		points: Array<{ x: number; y: number }>,
	) =>
		client.send("Input.dispatchTouchEvent", {
			type,
			touchPoints: points.map((point, id) => ({ ...point, id })),
		});
	await touchAt("touchStart", [centre]);
	await touchAt("touchMove", [{ x: centre.x + 40, y: centre.y }]);
	await touchAt("touchEnd", []);
	await expect(undoButton(page)).toBeEnabled();
	const zoomBefore = await page.locator("output").first().textContent();
	await touchAt("touchStart", [
		{ x: centre.x - 20, y: centre.y },
		{ x: centre.x + 20, y: centre.y },
	]);
	await touchAt("touchMove", [
		{ x: centre.x - 80, y: centre.y },
		{ x: centre.x + 80, y: centre.y },
	]);
	await touchAt("touchEnd", []);
	await expect(page.locator("output").first()).not.toHaveText(zoomBefore ?? "");
	// The pinch zoomed the canvas, not the page: the form under it (taller on a phone since the seed
	// has its dice) scrolls to its Generate button as it did.
	const generate = page.getByRole("button", { name: "Generate" });
	await generate.scrollIntoViewIfNeeded();
	await expect(generate).toBeInViewport();
	await expectNoAxeViolations(page);
});

test("the keyboard alone paints, undoes and starts an edit of the region", async ({ browser }) => {
	const { page, sourceId } = await openWithSource(browser, "mask-keyboard");
	await page.goto(`/edit?generation=${sourceId}&image=0&tool=region`);
	await expect(canvas(page)).toBeVisible();
	// Tab to the painting area through the tools, each named.
	for (let step = 0; step < 40; step += 1) {
		await page.keyboard.press("Tab");
		if (await canvas(page).evaluate((element) => element === document.activeElement)) break;
	}
	await expect(canvas(page)).toBeFocused();
	await page.keyboard.press("Enter");
	await page.keyboard.press("Shift+ArrowRight");
	await page.keyboard.press("Shift+ArrowRight");
	await expect(undoButton(page)).toBeEnabled();
	await page.keyboard.press("Control+z");
	await page.keyboard.press("Control+y");
	await page.keyboard.press("]");
	const started = page.waitForResponse(
		(response) =>
			new URL(response.url()).pathname === "/api/generations" &&
			response.request().method() === "POST",
	);
	await page.getByRole("button", { name: "Generate" }).focus();
	await page.keyboard.press("Enter");
	expect((await started).status()).toBe(201);
	await expect(page).toHaveURL(/\/generations$/);
});
