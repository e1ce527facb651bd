import { type Browser, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { z } from "zod";
import { GenerationSchema } from "../../src/shared/generation-responses";
import { E2E_BASE_URL } from "./support/constants";
import { createGenerations, openAccount, revealCard, waitForTransitions } from "./support/history";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// Making images from an image against the real server and the offline engine (which takes an
// image and upscales by 2 and 4): Vary and Upscale of a result, Edit with a reference, an upload
// dropped on the form, and the family links of the preview.

const CreatedSchema = z.object({ id: z.string() });

const FAMILY_SCREENSHOT = "docs/images/family.png";

function resultPanel(page: Page) {
	return page.getByRole("region", { name: "Result" });
}

function imageActions(page: Page) {
	return resultPanel(page).getByRole("group", { name: /^Make more from this image/ });
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

	await imageActions(page).getByRole("button", { name: "Upscale 2×" }).click();
	await expect(resultPanel(page).getByRole("heading", { name: "1 image" })).toBeVisible({
		timeout: 30_000,
	});
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
	await page.getByRole("menuitem", { name: "Edit" }).click();

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
	const png = await sharp({
		create: { width: 64, height: 48, channels: 3, background: "#336699" },
	})
		.png()
		.toBuffer();

	const upload = page.waitForResponse((response) => response.url().endsWith("/api/uploads"));
	await page.evaluate((base64) => {
		const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
		const transfer = new DataTransfer();
		transfer.items.add(new File([bytes], "sketch.png", { type: "image/png" }));
		const form = document.querySelector('form[aria-label="Generate images"]');
		form?.dispatchEvent(
			new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }),
		);
	}, png.toString("base64"));
	expect((await upload).status()).toBe(201);
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
			await context.request.delete(`/api/generations/${parentId}`, {
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
