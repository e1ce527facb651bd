import { mkdir } from "node:fs/promises";
import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { GenerationPageSchema } from "../../src/shared/generations/generation-responses";
import { clickOutsideDialog, expectNoAxeViolations, signUp, uniqueEmail } from "./support/journeys";

const BUSY_TEXT = "Image will be generated soon — this may take a few moments.";
const SCREENSHOT_PATH = path.join("docs", "images", "generator.png");

function promptBox(page: Page): Locator {
	return page.getByRole("textbox", { name: "Prompt" });
}

function generateButton(page: Page): Locator {
	return page.getByRole("button", { name: /^(Generate|Generating\.\.\.)$/ });
}

function resultPanel(page: Page): Locator {
	return page.getByRole("region", { name: "Result" });
}

async function chooseAspectRatio(page: Page, label: string): Promise<void> {
	const combobox = page.getByRole("combobox", { name: "Aspect ratio" });
	await combobox.click();
	await page.getByRole("option", { name: label, exact: true }).click();
	await expect(combobox).toContainText(label);
}

/** Progress values seen until the busy state ends, read as often as the page paints. */
async function watchProgress(page: Page): Promise<number[]> {
	return page.evaluate(
		() =>
			new Promise<number[]>((resolve) => {
				const seen: number[] = [];
				const read = () => {
					const bar = document.querySelector('[role="progressbar"]');
					if (!bar) {
						resolve(seen);
						return;
					}
					const value = Number(bar.getAttribute("aria-valuenow"));
					if (seen.at(-1) !== value) seen.push(value);
					requestAnimationFrame(read);
				};
				read();
			}),
	);
}

test("the prompt box is usable soon after navigation, from a small first load", async ({
	browser,
}) => {
	const timings: number[] = [];
	let firstLoad = { scripts: 0, styles: 0 };
	for (let run = 0; run < 5; run += 1) {
		// A fresh context each time: nothing cached, as for a first visit.
		const context = await browser.newContext();
		const page = await context.newPage();
		await page.addInitScript(() => {
			// Noted by the page itself, the moment the prompt box exists and accepts input.
			const record = () => {
				const box = document.querySelector("textarea[name=prompt]");
				if (box instanceof HTMLTextAreaElement && !box.disabled && !box.readOnly) {
					Reflect.set(window, "__promptReadyAt", performance.now());
					return true;
				}
				return false;
			};
			const observer = new MutationObserver(() => {
				if (record()) observer.disconnect();
			});
			observer.observe(document, { childList: true, subtree: true });
		});
		const transferred = { scripts: 0, styles: 0 };
		page.on("requestfinished", async (request) => {
			const type = request.resourceType();
			if (type !== "script" && type !== "stylesheet") return;
			const sizes = await request.sizes().catch(() => undefined);
			if (!sizes) return;
			if (type === "script") transferred.scripts += sizes.responseBodySize;
			else transferred.styles += sizes.responseBodySize;
		});

		await page.goto("/");
		await expect(promptBox(page)).toBeEditable();
		await page.waitForLoadState("networkidle");
		const readyAt = await page.evaluate(() => Number(Reflect.get(window, "__promptReadyAt")));
		expect(readyAt).toBeGreaterThan(0);
		timings.push(readyAt);
		if (run === 0) firstLoad = { ...transferred };

		// Usable means typing lands in it at once.
		await promptBox(page).fill("A test of the prompt box");
		await expect(page.getByText("24/500")).toBeVisible();
		await context.close();
	}
	const sorted = [...timings].sort((left, right) => left - right);
	const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
	console.log(
		`time from navigation to a usable prompt box: median ${median.toFixed(0)} ms (runs: ${timings
			.map((time) => time.toFixed(0))
			.join(
				", ",
			)} ms); signed-out first visit transferred ${(firstLoad.scripts / 1000).toFixed(1)} kB of JavaScript and ${(firstLoad.styles / 1000).toFixed(1)} kB of CSS`,
	);
	expect(median).toBeLessThan(2_000);
});

test("generate with the offline engine: progress, four images in the chosen ratio, the preview three ways", async ({
	page,
}) => {
	await page.setViewportSize({ width: 1280, height: 900 });
	await signUp(page, uniqueEmail("generate"));
	await expect(page.getByText("Built-in offline engine.")).toBeVisible();
	await expect(
		resultPanel(page).getByRole("heading", { name: "No images to display" }),
	).toBeVisible();
	await expectNoAxeViolations(page);

	const prompt = "A lighthouse on a cliff at dusk, warm light, long exposure";
	await promptBox(page).fill(prompt);
	await chooseAspectRatio(page, "Landscape (widescreen)");
	await generateButton(page).click();

	await expect(generateButton(page)).toHaveText("Generating...");
	await expect(generateButton(page)).toBeDisabled();
	await expect(resultPanel(page).getByText(BUSY_TEXT)).toBeVisible();
	const progress = watchProgress(page);
	await expectNoAxeViolations(page);

	const panel = resultPanel(page);
	await expect(panel.getByRole("heading", { name: "4 images" })).toBeVisible({ timeout: 20_000 });
	const seen = await progress;
	expect(seen.length).toBeGreaterThan(0);
	expect(seen).toEqual([...seen].sort((left, right) => left - right));
	expect(seen.every((value) => value >= 5 && value <= 95)).toBe(true);
	expect(seen.some((value) => value >= 20)).toBe(true);

	await expect(panel.getByText(prompt)).toBeVisible();
	await expect(panel.getByText("Landscape (widescreen)")).toBeVisible();
	await expect(panel.getByText(/^\d+(ms|\.\ds)$|^\d+m \d+s$/)).toBeVisible();
	await expect(generateButton(page)).toHaveText("Generate");

	// Four images, each 16:9 in the file itself and on the screen.
	const gallery = panel.getByRole("list", { name: "Generated images" });
	const openButtons = gallery.getByRole("button", { name: /^Open image \d of 4$/ });
	await expect(openButtons).toHaveCount(4);
	// The full images load lazily as the gallery scrolls: bring each into view and wait for it.
	const fullImages = gallery.locator("button img:last-of-type");
	for (let index = 0; index < 4; index += 1) {
		const image = fullImages.nth(index);
		await image.scrollIntoViewIfNeeded();
		await expect
			.poll(() =>
				image.evaluate(
					(element) =>
						element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
				),
			)
			.toBe(true);
	}
	const shapes = await fullImages.evaluateAll((elements) =>
		elements
			.filter((element) => element instanceof HTMLImageElement)
			.map((image) => {
				const box = image.getBoundingClientRect();
				return {
					natural: image.naturalWidth / image.naturalHeight,
					shown: box.width / box.height,
				};
			}),
	);
	expect(shapes).toHaveLength(4);
	for (const shape of shapes) {
		expect(shape.natural).toBeCloseTo(16 / 9, 1);
		expect(shape.shown).toBeCloseTo(16 / 9, 1);
	}
	await expectNoAxeViolations(page);
	await gallery.evaluate((element) => element.scrollTo({ left: 0 }));
	await mkdir(path.dirname(SCREENSHOT_PATH), { recursive: true });
	await page.screenshot({ path: SCREENSHOT_PATH, fullPage: false });

	// Escape closes the preview, and focus goes back to the image that opened it.
	const first = panel.getByRole("button", { name: "Open image 1 of 4" });
	await first.click();
	const dialog = page.getByRole("dialog", { name: "Image 1 of 4" });
	await expect(dialog).toBeVisible();
	await expect(dialog.getByRole("img", { name: prompt })).toBeVisible();
	expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
	await expectNoAxeViolations(page);
	await page.keyboard.press("Escape");
	await expect(dialog).toBeHidden();
	await expect(first).toBeFocused();
	expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe("hidden");
	await expect(promptBox(page)).toHaveValue(prompt);

	// The Close button.
	await panel.getByRole("button", { name: "Open image 2 of 4" }).click();
	await expect(page.getByRole("dialog", { name: "Image 2 of 4" })).toBeVisible();
	await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
	await expect(page.getByRole("dialog")).toBeHidden();

	// A click outside the picture.
	await panel.getByRole("button", { name: "Open image 3 of 4" }).click();
	await expect(page.getByRole("dialog", { name: "Image 3 of 4" })).toBeVisible();
	await clickOutsideDialog(page, 8, 8);
	await expect(page.getByRole("dialog")).toBeHidden();
	await expect(panel.getByRole("heading", { name: "4 images" })).toBeVisible();
});

test("keyboard shortcuts outside the text box: Ctrl+K, Ctrl+Enter and Escape", async ({ page }) => {
	await signUp(page, uniqueEmail("shortcuts"));

	await page.getByRole("heading", { level: 1 }).click();
	await page.keyboard.press("Control+k");
	await expect(promptBox(page)).toBeFocused();
	await page.keyboard.type("A paper crane on a desk");

	// Inside the text box, Ctrl+Enter does not generate.
	await page.keyboard.press("Control+Enter");
	await expect(
		resultPanel(page).getByRole("heading", { name: "No images to display" }),
	).toBeVisible();

	await page.getByRole("heading", { level: 1 }).click();
	await page.keyboard.press("Control+Enter");
	await expect(resultPanel(page).getByText(BUSY_TEXT)).toBeVisible();
	await expect(resultPanel(page).getByRole("heading", { name: "4 images" })).toBeVisible({
		timeout: 20_000,
	});

	await page.getByRole("heading", { level: 1 }).click();
	await page.keyboard.press("Escape");
	await expect(promptBox(page)).toHaveValue("");
	await expect(
		resultPanel(page).getByRole("heading", { name: "No images to display" }),
	).toBeVisible();
});

test("every validation message, and the prompt's cap and clean-up", async ({ page }) => {
	await page.goto("/");
	await promptBox(page).fill("A castle in the clouds");
	await generateButton(page).click();
	await expect(page.getByRole("alert")).toHaveText("Please sign in to generate images.");
	await expectNoAxeViolations(page);

	await signUp(page, uniqueEmail("rules"));
	await promptBox(page).fill("   ");
	await expect(page.getByText("Prompt cannot be empty")).toBeVisible();
	await expect(generateButton(page)).toBeDisabled();

	await promptBox(page).fill("javascript:alert(1)");
	await expect(page.getByText("Prompt contains invalid content")).toBeVisible();
	await expect(generateButton(page)).toBeDisabled();

	await promptBox(page).fill("");
	await page.getByRole("heading", { level: 1 }).click();
	await page.keyboard.press("Control+Enter");
	await expect(page.getByRole("alert")).toHaveText("Please enter a valid prompt.");
	await expect(page.getByText("Prompt cannot be empty")).toBeVisible();
	await expectNoAxeViolations(page);

	await promptBox(page).fill("a <b>bold</b> <script>fox");
	await expect(promptBox(page)).toHaveValue("a bbold/b scriptfox");
	await promptBox(page).fill("x".repeat(620));
	await expect(promptBox(page)).toHaveValue("x".repeat(500));
	await expect(page.getByText("500/500")).toBeVisible();
	await page.getByRole("button", { name: "Clear prompt" }).click();
	await expect(promptBox(page)).toHaveValue("");
	await expect(page.getByText("0/500")).toBeVisible();
});

test("cancel stops waiting; the server still finishes the generation and saves it", async ({
	page,
}) => {
	await signUp(page, uniqueEmail("cancel"));
	const prompt = "A hot air balloon over a canyon";
	await promptBox(page).fill(prompt);
	await generateButton(page).click();
	await expect(page.getByRole("progressbar")).toBeVisible();

	await resultPanel(page).getByRole("button", { name: "Cancel" }).click();
	await expect(page.getByRole("alert")).toHaveText("Request was cancelled");
	await expect(page.getByRole("progressbar")).toBeHidden();
	await expect(generateButton(page)).toHaveText("Generate");
	await expectNoAxeViolations(page);

	await expect
		.poll(
			async () => {
				const response = await page.request.get("/api/generations?limit=5");
				const { items } = GenerationPageSchema.parse(await response.json());
				return items.map((item) => [item.prompt, item.status]);
			},
			{ timeout: 20_000 },
		)
		.toContainEqual([prompt, "completed"]);

	// Cancelled here, so coming back does not pick it up again.
	await page.reload();
	await expect(
		resultPanel(page).getByRole("heading", { name: "No images to display" }),
	).toBeVisible();
});

test("reloading mid-generation picks it up again and shows its images", async ({ page }) => {
	await signUp(page, uniqueEmail("reload"));
	const prompt = "An hourglass on a study desk, steampunk";
	await promptBox(page).fill(prompt);
	await chooseAspectRatio(page, "Portrait (vertical)");
	await generateButton(page).click();
	await expect(page.getByRole("progressbar")).toBeVisible();

	await page.reload();
	await expect(resultPanel(page).getByText(BUSY_TEXT)).toBeVisible();
	await expect(page.getByRole("progressbar")).toBeVisible();
	await expect(promptBox(page)).toHaveValue(prompt);
	await expect(page.getByRole("combobox", { name: "Aspect ratio" })).toContainText(
		"Portrait (vertical)",
	);

	const panel = resultPanel(page);
	await expect(panel.getByRole("heading", { name: "4 images" })).toBeVisible({ timeout: 20_000 });
	await expect(panel.getByText(prompt)).toBeVisible();
	await expect(panel.getByText("Portrait (vertical)")).toBeVisible();
});

test("the generator fits a 360 px wide phone", async ({ page }) => {
	await page.setViewportSize({ width: 360, height: 780 });
	await signUp(page, uniqueEmail("phone"));
	await promptBox(page).fill("A koi pond in the rain");
	await chooseAspectRatio(page, "Landscape (ultrawide)");
	await generateButton(page).click();
	await expect(resultPanel(page).getByRole("heading", { name: "4 images" })).toBeVisible({
		timeout: 20_000,
	});

	const overflow = await page.evaluate(
		() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
	);
	expect(overflow).toBeLessThanOrEqual(0);
	await expectNoAxeViolations(page);
});
