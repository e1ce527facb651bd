// An image dropped on the form, or chosen with "Load settings from image", fills the form from the
// recipe the file carries.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { PublicModel } from "../../../shared/generations/models";
import { generatorNoRecipe } from "../../../shared/i18n/messages";
import type { ImageRecipe } from "../../../shared/image-recipe/image-recipe";
import { writePngRecipe } from "../../../shared/image-recipe/image-recipe-files";
import { createTestGeneration, createTestModel } from "../../testing/fakes/test-generations";
import {
	cleanUpGeneratorScreen,
	getPromptBox,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";
import { findToast } from "../../testing/toasts";

afterEach(cleanUpGeneratorScreen);

const LOCAL = createTestModel();

const SKETCH: PublicModel = {
	...LOCAL,
	id: "sketch",
	label: "Quick sketch",
	counts: [1, 2],
	negativePrompt: false,
};

const RECIPE: ImageRecipe = {
	prompt: "A fox in the snow",
	aspectRatio: "--ar 16:9",
	model: { id: "sketch", label: "Quick sketch" },
	count: 1,
	seed: 42,
	negativePrompt: null,
	quality: null,
	width: 32,
	height: 18,
	style: null,
};

async function createPicture(): Promise<Buffer> {
	return sharp({ create: { width: 32, height: 18, channels: 3, background: "#336699" } })
		.png()
		.toBuffer();
}

async function createImageFile(recipe: ImageRecipe): Promise<File> {
	const bytes = writePngRecipe(await createPicture(), recipe);
	if (!bytes) throw new Error("the recipe was not written");
	return new File([bytes], "fox.png", { type: "image/png" });
}

function startApiWithTwoModels() {
	return startGeneratorApi({
		models: [LOCAL, SKETCH],
	});
}

function dropOnForm(file: File): void {
	const form = screen.getByRole("form", { name: "Generate images" });
	fireEvent.drop(form, { dataTransfer: { files: [file], types: ["Files"] } });
}

describe("settings from an image", () => {
	it("fills the prompt, ratio, model, count and seed of an image dropped on the form", async () => {
		startApiWithTwoModels();
		await openGenerator();

		dropOnForm(await createImageFile(RECIPE));

		await waitFor(() => expect(getPromptBox()).toHaveValue("A fox in the snow"));
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveTextContent(
			"Landscape (widescreen)",
		);
		await waitFor(() =>
			expect(screen.getByRole("combobox", { name: "Model" })).toHaveValue("sketch"),
		);
		expect(screen.getByRole("radio", { name: "1 image" })).toBeChecked();
		expect(screen.getByRole("spinbutton", { name: "Seed" })).toHaveValue(42);
	});

	it("loads them from a file chosen with Load settings from image, a gone model said so", async () => {
		startApiWithTwoModels();
		const { user } = await openGenerator();
		const file = await createImageFile({
			...RECIPE,
			model: { id: "retired", label: "Retired" },
			negativePrompt: "people",
		});

		const picker = screen.getByLabelText("Image to load settings from");
		expect(picker).toHaveAttribute("accept", "image/png,image/jpeg,image/webp");
		await user.upload(picker, file);

		expect(await findToast("This model is no longer offered")).toBeVisible();
		expect(getPromptBox()).toHaveValue("A fox in the snow");
		expect(screen.getByRole("combobox", { name: "Model" })).toHaveValue("local");
		expect(screen.getByRole("radio", { name: "1 image" })).toBeChecked();
		expect(screen.getByRole("textbox", { name: "Negative prompt" })).toHaveValue("people");
	});

	it("says so when the image has no settings to load, and changes nothing", async () => {
		startApiWithTwoModels();
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A lighthouse");

		dropOnForm(
			new File([new Uint8Array(await createPicture())], "plain.png", { type: "image/png" }),
		);

		expect(await findToast(generatorNoRecipe())).toBeVisible();
		expect(getPromptBox()).toHaveValue("A lighthouse");
	});

	it("reopens the editor, with its recorded mask, for a dropped Edit region result", async () => {
		const source = createTestGeneration({ prompt: "A harbour at dawn" });
		const edit = createTestGeneration({
			prompt: "A red door",
			parent: { generationId: source.id, imageIndex: 1, action: "edit-region", exists: true },
		});
		startGeneratorApi({ models: [LOCAL, SKETCH], generations: [source, edit] });
		const { readLocation } = await openGenerator();

		const file = await createImageFile({
			...RECIPE,
			regionEdit: { action: "edit-region", generationId: edit.id },
		});
		dropOnForm(file);

		// The link is found by modules this file imports first here (the generation's requests and
		// the image actions, loaded on demand), transformed on that first import: 0.75 s on a quiet
		// machine, 1.1 s with both cores busy, past the default wait of 1 s.
		await waitFor(
			() =>
				expect(readLocation()).toBe(
					`/edit?generation=${source.id}&image=1&tool=region&reopen=${edit.id}`,
				),
			{ timeout: 15_000 },
		);
	});
});
