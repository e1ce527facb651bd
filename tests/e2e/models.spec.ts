import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectNoAxeViolations, signUp, uniqueEmail } from "./support/journeys";

// The journeys' server offers two models of the offline engine (support/models.json): "local"
// (the default, with everything) and "sketch" (one or two images, no negative prompt, $0.01).

function promptBox(page: Page): Locator {
	return page.getByRole("textbox", { name: "Prompt", exact: true });
}

function modelSelect(page: Page): Locator {
	return page.getByRole("combobox", { name: "Model" });
}

function images(page: Page): Locator {
	return page.getByRole("radiogroup", { name: "Images" });
}

function resultPanel(page: Page): Locator {
	return page.getByRole("region", { name: "Result" });
}

test("choose a model: the settings follow it, and the results show the model and the seed", async ({
	page,
}) => {
	await page.setViewportSize({ width: 1280, height: 900 });
	await signUp(page, uniqueEmail("models"));

	// The default model, with every setting.
	await expect(modelSelect(page)).toHaveValue("local");
	await expect(modelSelect(page).getByRole("option")).toHaveText([
		"Offline engine — Generative art drawn on this server",
		"Quick sketch — One or two quick drafts, no negative prompt · $0.01 per image",
	]);
	await expect(images(page).getByRole("radio")).toHaveCount(4);
	await expect(images(page).getByRole("radio", { name: "4 images" })).toBeChecked();
	await page.getByRole("button", { name: "Advanced settings" }).click();
	await expect(page.getByRole("spinbutton", { name: "Seed" })).toBeVisible();
	await expect(page.getByRole("textbox", { name: "Negative prompt" })).toBeVisible();
	await expectNoAxeViolations(page);

	// The quick sketch: one or two images, no negative prompt.
	await page.getByRole("textbox", { name: "Negative prompt" }).fill("people");
	await modelSelect(page).selectOption("sketch");
	await expect(images(page).getByRole("radio")).toHaveCount(2);
	await expect(images(page).getByRole("radio", { name: "2 images" })).toBeChecked();
	await expect(page.getByRole("textbox", { name: "Negative prompt" })).toHaveCount(0);
	await expectNoAxeViolations(page);

	await page.getByRole("spinbutton", { name: "Seed" }).fill("424242");
	await promptBox(page).fill("A harbour at dawn, small boats");
	const started = page.waitForRequest(
		(request) =>
			request.method() === "POST" && new URL(request.url()).pathname === "/api/generations",
	);
	await page.getByRole("button", { name: "Generate" }).click();
	// What the model does not offer is not sent.
	expect((await started).postDataJSON()).toEqual({
		prompt: "A harbour at dawn, small boats",
		aspectRatio: "--ar 1:1",
		model: "sketch",
		count: 2,
		seed: 424242,
	});

	const panel = resultPanel(page);
	await expect(panel.getByRole("heading", { name: "2 images" })).toBeVisible({ timeout: 20_000 });
	await expect(panel.getByText("Quick sketch")).toBeVisible();
	await expect(panel.getByText("424242")).toBeVisible();
	await expectNoAxeViolations(page);

	await panel.getByRole("button", { name: "Open image 1 of 2" }).click();
	const preview = page.getByRole("dialog", { name: "Image 1 of 2" });
	await expect(preview.getByText("Quick sketch · Seed 424242")).toBeVisible();
	await page.keyboard.press("Escape");
	await expect(preview).toBeHidden();

	// The choice is remembered: the next visit starts from the quick sketch.
	await page.reload();
	await expect(modelSelect(page)).toHaveValue("sketch");
});

test("the settings work from the keyboard", async ({ page }) => {
	await page.setViewportSize({ width: 1280, height: 900 });
	await signUp(page, uniqueEmail("models-keyboard"));
	await expect(modelSelect(page)).toHaveValue("local");

	await promptBox(page).fill("A lantern in the snow");
	// Tab from the prompt: its Clear button, the ratio, then the model.
	await modelSelect(page).focus();
	await page.keyboard.press("ArrowDown");
	await expect(modelSelect(page)).toHaveValue("sketch");
	await page.keyboard.press("Tab");
	await expect(images(page).getByRole("radio", { name: "2 images" })).toBeFocused();
	await page.keyboard.press("ArrowLeft");
	await expect(images(page).getByRole("radio", { name: "1 image" })).toBeChecked();

	await page.keyboard.press("Tab");
	const advanced = page.getByRole("button", { name: "Advanced settings" });
	await expect(advanced).toBeFocused();
	await page.keyboard.press("Enter");
	await expect(advanced).toHaveAttribute("aria-expanded", "true");
	await page.keyboard.press("Tab");
	await expect(page.getByRole("button", { name: "Recent" })).toBeFocused();
	await page.keyboard.press("Tab");
	await expect(page.getByRole("button", { name: "Load settings from image" })).toBeFocused();
	await page.keyboard.press("Tab");
	await expect(page.getByRole("combobox", { name: "Style" })).toBeFocused();
	// Save as style takes the focus next where there is a prompt to keep.
	const saveStyle = page.getByRole("button", { name: "Save as style" });
	if (await saveStyle.isEnabled()) {
		await page.keyboard.press("Tab");
		await expect(saveStyle).toBeFocused();
	}
	await page.keyboard.press("Tab");
	const seed = page.getByRole("spinbutton", { name: "Seed" });
	await expect(seed).toBeFocused();
	await page.keyboard.type("7");
	await page.keyboard.press("Tab");
	const random = page.getByRole("button", { name: "Random seed" });
	await expect(random).toBeFocused();
	await page.keyboard.press("Enter");
	await expect(seed).toHaveValue("");
	await expectNoAxeViolations(page);

	// Ctrl+Enter outside the text fields generates with these settings.
	await page.keyboard.press("Control+Enter");
	await expect(resultPanel(page).getByRole("heading", { name: "1 image" })).toBeVisible({
		timeout: 20_000,
	});
	await expect(resultPanel(page).getByText("Quick sketch")).toBeVisible();
});

/** Drops `bytes` as an image file on the generator's form, as a file manager would. */
async function dropImageOnForm(page: Page, bytes: Buffer, name: string): Promise<void> {
	const dataTransfer = await page.evaluateHandle(
		({ data, fileName }) => {
			const transfer = new DataTransfer();
			transfer.items.add(new File([new Uint8Array(data)], fileName, { type: "image/png" }));
			return transfer;
		},
		{ data: [...bytes], fileName: name },
	);
	const form = page.getByRole("form", { name: "Generate images" });
	await form.dispatchEvent("dragenter", { dataTransfer });
	await form.dispatchEvent("dragover", { dataTransfer });
	await form.dispatchEvent("drop", { dataTransfer });
}

test("drop a downloaded image back on the generator: its settings fill the form", async ({
	page,
}) => {
	await page.setViewportSize({ width: 1280, height: 900 });
	await signUp(page, uniqueEmail("models-drop"));
	await expect(modelSelect(page)).toHaveValue("local");

	// Made with settings of its own: two images, a seed and a negative prompt.
	await promptBox(page).fill("A windmill on a hill, evening");
	await page.getByRole("combobox", { name: "Aspect ratio" }).click();
	await page.getByRole("option", { name: "Portrait (vertical)", exact: true }).click();
	// The segment as it is clicked: its radio is visually hidden.
	await images(page).getByText("2", { exact: true }).click();
	await expect(images(page).getByRole("radio", { name: "2 images" })).toBeChecked();
	await page.getByRole("button", { name: "Advanced settings" }).click();
	await page.getByRole("spinbutton", { name: "Seed" }).fill("9001");
	await page.getByRole("textbox", { name: "Negative prompt" }).fill("people");
	const started = page.waitForResponse(
		(response) =>
			response.request().method() === "POST" &&
			new URL(response.url()).pathname === "/api/generations",
	);
	await page.getByRole("button", { name: "Generate" }).click();
	const { id } = await (await started).json();
	await expect(resultPanel(page).getByRole("heading", { name: "2 images" })).toBeVisible({
		timeout: 20_000,
	});
	const download = await page.request.get(`/api/generations/${id}/images/0/download`);
	expect(download.ok()).toBe(true);
	const original = await download.body();

	// A fresh form, then the downloaded image dropped on it.
	await page.goto("/");
	await expect(modelSelect(page)).toHaveValue("local");
	await expect(promptBox(page)).toHaveValue("");
	await dropImageOnForm(page, original, "windmill.png");

	await expect(promptBox(page)).toHaveValue("A windmill on a hill, evening");
	await expect(page.getByRole("combobox", { name: "Aspect ratio" })).toContainText(
		"Portrait (vertical)",
	);
	await expect(images(page).getByRole("radio", { name: "2 images" })).toBeChecked();
	await expect(page.getByRole("spinbutton", { name: "Seed" })).toHaveValue("9001");
	await expect(page.getByRole("textbox", { name: "Negative prompt" })).toHaveValue("people");
	await expectNoAxeViolations(page);

	// An image without a recipe says so.
	const plain = Buffer.from(
		"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
		"base64",
	);
	await dropImageOnForm(page, plain, "plain.png");
	await expect(page.getByText("This image has no settings to load")).toBeVisible();
	await expect(promptBox(page)).toHaveValue("A windmill on a hill, evening");
});
