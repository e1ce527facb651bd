// Making images from an image in the generator: Vary and Upscale of a result, Edit, and the
// reference image (Add reference image, a drop on the form, Reference strength, Remove reference).

import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { PublicModel } from "../../../shared/generations/models";
import {
	editorTitleExpand,
	editorTitleRegion,
	generatorAddReference,
	generatorNoImageInput,
	generatorNoReferenceStrength,
	generatorReferenceImage,
	generatorReferenceStrength,
	generatorRemoveReference,
	generatorUploadTooLarge,
	imageMadeFrom,
	imageMadeFromThis,
	imageUpscaleResamples,
} from "../../../shared/i18n/messages";
import {
	DEFAULT_REFERENCE_STRENGTH,
	MAX_UPLOAD_BYTES,
} from "../../../shared/image-input/image-input";
import type { ImageRecipe } from "../../../shared/image-recipe/image-recipe";
import { writePngRecipe } from "../../../shared/image-recipe/image-recipe-files";
import { createTestModel } from "../../testing/fakes/test-generations";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	getResultPanel,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";

afterEach(cleanUpGeneratorScreen);

/** The offline engine as it is with image input: Vary, Edit, Upscale 2× and 4×. */
const PAINTER: PublicModel = createTestModel({ imageInput: true, upscale: [2, 4] });
const TEXT_ONLY: PublicModel = createTestModel({ id: "text", label: "Text only" });
/** A model that takes an image but no reference strength, as OpenAI's edits. */
const EDITOR: PublicModel = createTestModel({
	id: "editor",
	label: "Editor",
	imageInput: true,
	referenceStrength: false,
});
const UPSCALER: PublicModel = createTestModel({
	id: "upscaler",
	label: "Upscaler",
	textToImage: false,
	upscale: [2],
});

async function createPng(): Promise<Buffer> {
	return sharp({ create: { width: 32, height: 18, channels: 3, background: "#336699" } })
		.png()
		.toBuffer();
}

/** A file as the browser hands it over (the test setup's File is the one its fetch can send). */
function createFile(bytes: Uint8Array<ArrayBuffer> | string, name: string): File {
	return new File([bytes], name, { type: "image/png" });
}

async function createPngFile(name = "sketch.png"): Promise<File> {
	return createFile(new Uint8Array(await createPng()), name);
}

/** Generates from the form and waits for the four images. */
async function generateImages(user: Awaited<ReturnType<typeof openGenerator>>["user"]) {
	await user.type(getPromptBox(), "A lighthouse in a storm");
	await user.click(getGenerateButton());
	return within(getResultPanel()).findByRole("heading", { name: /images?$/ }, { timeout: 5_000 });
}

/** The actions on the image shown, once the models (what they offer) are known. */
function findImageActions(): Promise<HTMLElement> {
	return within(getResultPanel()).findByRole("group", { name: /^Make more from this image/ });
}

describe("Vary and Upscale of a result", () => {
	it("starts a subtle variation of the image shown at once and follows it like any generation", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		const { user } = await openGenerator();
		await generateImages(user);

		await user.click(within(getResultPanel()).getByRole("button", { name: "Show image 2 of 4" }));
		const actions = await findImageActions();
		expect(actions).toHaveAccessibleName("Make more from this image: image 2 of 4");
		await user.click(within(actions).getByRole("button", { name: "Vary (subtle)" }));

		// No prompt nor ratio: the server takes them, and the model, from the parent.
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
		expect(server.readCreateRequests()[1]).toEqual({
			action: "vary-subtle",
			reference: { generationId: server.generationId, imageIndex: 1 },
		});
		expect(
			await within(getResultPanel()).findByRole(
				"heading",
				{ name: "4 images" },
				{ timeout: 5_000 },
			),
		).toBeVisible();
		// The variation's results are shown, with the parent's prompt.
		expect(within(getResultPanel()).getByText("A lighthouse in a storm")).toBeVisible();
	});

	it("starts a strong variation, and an upscale by the factor chosen", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		const { user } = await openGenerator();
		await generateImages(user);

		await user.click(
			within(await findImageActions()).getByRole("button", { name: "Vary (strong)" }),
		);
		await within(getResultPanel()).findByRole("heading", { name: "4 images" }, { timeout: 5_000 });
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
		const varied = server.readGenerations()[0];

		// The model upscales by 2 and 4: both are offered.
		expect(
			within(await findImageActions()).getByRole("button", { name: "Upscale 2×" }),
		).toBeVisible();
		await user.click(within(await findImageActions()).getByRole("button", { name: "Upscale 4×" }));
		expect(
			await within(getResultPanel()).findByRole("heading", { name: "1 image" }, { timeout: 5_000 }),
		).toBeVisible();
		expect(server.readCreateRequests().slice(1)).toEqual([
			{ action: "vary-strong", reference: { generationId: server.generationId, imageIndex: 0 } },
			{ action: "upscale", reference: { generationId: varied?.id, imageIndex: 0 }, factor: 4 },
		]);
	});

	it("shows the server's refusal as it shows any start's (the quota)", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		const { user } = await openGenerator();
		await generateImages(user);

		server.setFailure("create", "QUOTA_EXCEEDED");
		await user.click(
			within(await findImageActions()).getByRole("button", { name: "Vary (subtle)" }),
		);

		expect(
			await within(getResultPanel()).findByText(
				"You have reached the limit of generations. Please try again later.",
			),
		).toBeVisible();
	});

	it("says beside Upscale that the model that will upscale only resamples, and only then", async () => {
		const resampler = createTestModel({
			id: "engine",
			label: "Offline engine",
			imageInput: true,
			upscale: [2, 4],
			upscaleResamples: true,
		});
		startGeneratorApi({ models: [resampler] });
		const { user } = await openGenerator();
		await generateImages(user);

		const actions = await findImageActions();
		for (const name of ["Upscale 2×", "Upscale 4×"]) {
			expect(within(actions).getByRole("button", { name })).toHaveAccessibleDescription(
				imageUpscaleResamples(),
			);
		}
		expect(within(actions).getByText(imageUpscaleResamples())).toBeVisible();
		expect(
			within(actions).getByRole("button", { name: "Vary (subtle)" }),
		).not.toHaveAccessibleDescription();
	});

	it("says nothing of resampling where another model, one that adds detail, will upscale", async () => {
		// The image's model does not upscale: the first model that does (an upscaler) will.
		startGeneratorApi({ models: [TEXT_ONLY, UPSCALER] });
		const { user } = await openGenerator();
		await generateImages(user);

		const upscale = within(await findImageActions()).getByRole("button", { name: "Upscale" });
		expect(upscale).not.toHaveAccessibleDescription();
		expect(screen.queryByText(imageUpscaleResamples())).not.toBeInTheDocument();
	});

	it("offers no action where the model takes no image and nothing upscales", async () => {
		startGeneratorApi({ models: [TEXT_ONLY] });
		const { user } = await openGenerator();
		await generateImages(user);

		expect(
			within(getResultPanel()).queryByRole("group", { name: /^Make more from this image/ }),
		).not.toBeInTheDocument();
		expect(screen.queryByRole("button", { name: "Vary (subtle)" })).not.toBeInTheDocument();
	});
});

describe("Edit and the reference image", () => {
	it("Edit makes the image the reference, fills the prompt, and the next start sends both", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		const { user } = await openGenerator();
		await generateImages(user);
		await user.clear(getPromptBox());

		await user.click(within(getResultPanel()).getByRole("button", { name: "Show image 3 of 4" }));
		await user.click(within(await findImageActions()).getByRole("button", { name: "Edit" }));

		expect(getPromptBox()).toHaveValue("A lighthouse in a storm");
		expect(getPromptBox()).toHaveFocus();
		expect(screen.getByRole("img", { name: generatorReferenceImage() })).toHaveAttribute(
			"src",
			`/api/images/generations/${server.generationId}/2-thumb.webp`,
		);
		const slider = screen.getByRole("slider", { name: generatorReferenceStrength() });
		expect(slider).toHaveValue(String(DEFAULT_REFERENCE_STRENGTH));
		expect(slider).toHaveAttribute("aria-valuetext", "0.60");

		// The slider untouched, the server's default strength (the one the slider shows) applies.
		await user.type(getPromptBox(), ", at night");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
		expect(server.readCreateRequests()[1]).toEqual({
			prompt: "A lighthouse in a storm, at night",
			aspectRatio: "--ar 1:1",
			model: "local",
			count: 4,
			action: "edit",
			reference: { generationId: server.generationId, imageIndex: 2 },
		});
	});

	it("uploads an added image, shows it, sends it with the strength set, and Remove reference takes it away", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		const { user } = await openGenerator();

		const picker = screen.getByLabelText(generatorAddReference(), { selector: "input" });
		expect(picker).toHaveAttribute("accept", "image/png,image/jpeg,image/webp");
		await user.upload(picker, await createPngFile());

		const thumbnail = await screen.findByRole("img", { name: generatorReferenceImage() });
		expect(thumbnail).toHaveAttribute("src", "/api/uploads/upload-1/image");
		expect(server.readUploads()).toHaveLength(1);
		const slider = screen.getByRole("slider", { name: generatorReferenceStrength() });
		fireEvent.change(slider, { target: { value: "0.25" } });
		expect(slider).toHaveAttribute("aria-valuetext", "0.25");

		await user.type(getPromptBox(), "A fox in the snow");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toMatchObject({
			prompt: "A fox in the snow",
			action: "edit",
			reference: { uploadId: "upload-1" },
			strength: 0.25,
		});
		await within(getResultPanel()).findByRole("heading", { name: "4 images" }, { timeout: 5_000 });

		await user.click(screen.getByRole("button", { name: generatorRemoveReference() }));
		expect(screen.queryByRole("img", { name: generatorReferenceImage() })).not.toBeInTheDocument();
		expect(
			screen.queryByRole("slider", { name: generatorReferenceStrength() }),
		).not.toBeInTheDocument();
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
		expect(server.readCreateRequests()[1]).not.toHaveProperty("reference");
	});

	it("offers Edit region and Expand of an uploaded reference where a model can do them", async () => {
		const inpainter = createTestModel({ imageInput: true, mask: true, outpaint: true });
		startGeneratorApi({ models: [inpainter] });
		const { user } = await openGenerator();
		const picker = screen.getByLabelText(generatorAddReference(), { selector: "input" });
		await user.upload(picker, await createPngFile());
		await screen.findByRole("img", { name: generatorReferenceImage() });
		expect(await screen.findByRole("link", { name: editorTitleRegion() })).toHaveAttribute(
			"href",
			"/edit?upload=upload-1&tool=region",
		);
		expect(screen.getByRole("link", { name: editorTitleExpand() })).toHaveAttribute(
			"href",
			"/edit?upload=upload-1&tool=expand",
		);
	});

	it("refuses a file over the limit before sending it, and shows the server's refusal of another", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		const { user } = await openGenerator();
		const picker = screen.getByLabelText(generatorAddReference(), { selector: "input" });

		const huge = createFile(new Uint8Array(MAX_UPLOAD_BYTES + 1), "huge.png");
		await user.upload(picker, huge);
		expect(await screen.findByText(generatorUploadTooLarge())).toBeVisible();
		expect(server.readUploads()).toHaveLength(0);

		// Text named like a picture: the server tells by content.
		await user.upload(picker, createFile("not a picture", "notes.png"));
		expect(await screen.findByText("image must be a PNG, JPEG or WebP file")).toBeVisible();
		expect(server.readUploads()).toHaveLength(1);
		expect(screen.queryByRole("img", { name: generatorReferenceImage() })).not.toBeInTheDocument();
	});

	it("says the chosen model takes no reference, and does not send one to it", async () => {
		const server = startGeneratorApi({ models: [PAINTER, TEXT_ONLY] });
		const { user } = await openGenerator();
		await user.upload(
			screen.getByLabelText(generatorAddReference(), { selector: "input" }),
			await createPngFile(),
		);
		await screen.findByRole("img", { name: generatorReferenceImage() });

		await user.selectOptions(screen.getByRole("combobox", { name: "Model" }), "text");
		expect(screen.getByText(generatorNoImageInput())).toBeVisible();
		expect(
			screen.queryByRole("slider", { name: generatorReferenceStrength() }),
		).not.toBeInTheDocument();
		expect(screen.queryByRole("button", { name: generatorAddReference() })).not.toBeInTheDocument();

		await user.type(getPromptBox(), "A fox in the snow");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toEqual({
			prompt: "A fox in the snow",
			aspectRatio: "--ar 1:1",
			model: "text",
			count: 4,
		});
	});

	it("shows no Reference strength for a model that decides by itself how far to move, says so, and sends none", async () => {
		const server = startGeneratorApi({ models: [PAINTER, EDITOR] });
		const { user } = await openGenerator();
		await user.upload(
			screen.getByLabelText(generatorAddReference(), { selector: "input" }),
			await createPngFile(),
		);
		await screen.findByRole("img", { name: generatorReferenceImage() });
		fireEvent.change(screen.getByRole("slider", { name: generatorReferenceStrength() }), {
			target: { value: "0.25" },
		});

		await user.selectOptions(screen.getByRole("combobox", { name: "Model" }), "editor");
		expect(
			screen.queryByRole("slider", { name: generatorReferenceStrength() }),
		).not.toBeInTheDocument();
		expect(screen.getByText(generatorNoReferenceStrength())).toBeVisible();
		// The reference stays, and may still be removed.
		expect(screen.getByRole("img", { name: generatorReferenceImage() })).toBeVisible();
		expect(screen.getByRole("button", { name: generatorRemoveReference() })).toBeVisible();

		await user.type(getPromptBox(), "A fox in the snow");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toEqual({
			prompt: "A fox in the snow",
			aspectRatio: "--ar 1:1",
			model: "editor",
			count: 4,
			action: "edit",
			reference: { uploadId: "upload-1" },
		});
		await within(getResultPanel()).findByRole("heading", { name: "4 images" }, { timeout: 5_000 });

		// Back on a model that honours it, the slider is there with the strength set before.
		await user.selectOptions(screen.getByRole("combobox", { name: "Model" }), "local");
		expect(screen.getByRole("slider", { name: generatorReferenceStrength() })).toHaveValue("0.25");
		expect(screen.queryByText(generatorNoReferenceStrength())).not.toBeInTheDocument();
	});

	it("says so where the control would be for a model without image input", async () => {
		startGeneratorApi({ models: [TEXT_ONLY] });
		await openGenerator();
		expect(screen.getByText(generatorNoImageInput())).toBeVisible();
		expect(screen.queryByRole("button", { name: generatorAddReference() })).not.toBeInTheDocument();
	});

	it("never offers a model that only upscales in the picker", async () => {
		startGeneratorApi({ models: [PAINTER, UPSCALER, TEXT_ONLY] });
		await openGenerator();
		const options = within(screen.getByRole("combobox", { name: "Model" })).getAllByRole("option");
		expect(options.map((option) => option.getAttribute("value"))).toEqual(["local", "text"]);
	});
});

describe("an image dropped on the form", () => {
	const RECIPE: ImageRecipe = {
		prompt: "A fox in the snow",
		aspectRatio: "--ar 16:9",
		model: { id: "local", label: "Offline engine" },
		count: 2,
		seed: 42,
		negativePrompt: null,
		quality: null,
		width: 32,
		height: 18,
		style: null,
	};

	async function dropOnForm(file: File) {
		fireEvent.drop(screen.getByRole("form", { name: "Generate images" }), {
			dataTransfer: { files: [file], types: ["Files"] },
		});
	}

	it("fills the settings from its recipe and becomes the reference of a model that takes one", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		await openGenerator();
		const bytes = writePngRecipe(await createPng(), RECIPE);
		if (!bytes) throw new Error("the recipe was not written");

		await dropOnForm(createFile(bytes, "fox.png"));

		await waitFor(() => expect(getPromptBox()).toHaveValue("A fox in the snow"));
		expect(await screen.findByRole("img", { name: generatorReferenceImage() })).toBeVisible();
		expect(server.readUploads()).toHaveLength(1);
	});

	it("only fills the settings where the model takes no image", async () => {
		const server = startGeneratorApi({ models: [TEXT_ONLY] });
		await openGenerator();
		const bytes = writePngRecipe(await createPng(), { ...RECIPE, model: null });
		if (!bytes) throw new Error("the recipe was not written");

		await dropOnForm(createFile(bytes, "fox.png"));

		await waitFor(() => expect(getPromptBox()).toHaveValue("A fox in the snow"));
		expect(server.readUploads()).toHaveLength(0);
		expect(screen.queryByRole("img", { name: generatorReferenceImage() })).not.toBeInTheDocument();
	});
});

describe("the generator's own preview", () => {
	it("shows the actions on the image it shows, and starts a variation of that image from it", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		const { user } = await openGenerator();
		await generateImages(user);
		const parentId = server.generationId;

		await user.click(within(getResultPanel()).getByRole("button", { name: "Open image 2 of 4" }));
		const dialog = await screen.findByRole("dialog", { name: "Image 2 of 4" });
		// A modal dialog takes the page's pointer events away when it mounts and gives them back to
		// itself a render later: a click in between meets `pointer-events: none`.
		await waitFor(() => expect(dialog).toHaveStyle({ pointerEvents: "auto" }));
		const actions = await within(dialog).findByRole("group", {
			name: "Make more from this image: image 2 of 4",
		});
		expect(
			within(actions)
				.getAllByRole("button")
				.map((button) => button.textContent),
		).toEqual(["Vary (subtle)", "Vary (strong)", "Upscale 2×", "Upscale 4×", "Edit"]);
		// Nothing was made from it yet: no family to show, none asked for.
		expect(within(dialog).queryByRole("region", { name: imageMadeFromThis() })).toBeNull();

		await user.click(within(actions).getByRole("button", { name: "Vary (subtle)" }));
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
		expect(server.readCreateRequests()[1]).toEqual({
			action: "vary-subtle",
			reference: { generationId: parentId, imageIndex: 1 },
		});
		// The preview closes on the new generation, which runs and shows in the results like any.
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
		expect(
			await within(getResultPanel()).findByRole(
				"heading",
				{ name: "4 images" },
				{ timeout: 5_000 },
			),
		).toBeVisible();
		expect(server.readGenerations()[0]?.parent).toEqual({
			generationId: parentId,
			imageIndex: 1,
			action: "vary-subtle",
			exists: true,
		});
	});

	it("shows the family: Made from opens the original on its image, whose Made from this lists the variation", async () => {
		const server = startGeneratorApi({ models: [PAINTER] });
		const { user } = await openGenerator();
		await generateImages(user);
		const parentId = server.generationId;
		await user.click(within(getResultPanel()).getByRole("button", { name: "Show image 3 of 4" }));
		await user.click(
			within(await findImageActions()).getByRole("button", { name: "Vary (strong)" }),
		);
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
		await within(getResultPanel()).findByRole("heading", { name: "4 images" }, { timeout: 5_000 });
		const childId = server.readGenerations()[0]?.id;

		await user.click(within(getResultPanel()).getByRole("button", { name: "Open image 1 of 4" }));
		let dialog = await screen.findByRole("dialog", { name: "Image 1 of 4" });
		const madeFrom = await within(dialog).findByRole("region", {
			name: imageMadeFrom(),
		});
		const original = within(madeFrom).getByRole("button", {
			name: "Open the original: A lighthouse in a storm",
		});
		expect(within(original).getByRole("presentation", { hidden: true })).toHaveAttribute(
			"src",
			`/api/images/generations/${parentId}/2-thumb.webp`,
		);
		expect(within(madeFrom).getByText("Vary (strong)")).toBeVisible();

		// The original opens on the image the variation was made from, with the variation under it.
		await user.click(original);
		dialog = await screen.findByRole("dialog", { name: "Image 3 of 4" });
		const children = await within(dialog).findByRole("region", {
			name: imageMadeFromThis(),
		});
		expect(
			within(children).getByRole("button", { name: "Open Vary (strong): A lighthouse in a storm" }),
		).toBeVisible();
		expect(
			within(dialog).getByRole("group", { name: "Make more from this image: image 3 of 4" }),
		).toBeVisible();
		// Its sibling images have nothing made from them.
		await user.click(within(dialog).getByRole("button", { name: "Next image" }));
		dialog = await screen.findByRole("dialog", { name: "Image 4 of 4" });
		await waitFor(() =>
			expect(
				within(dialog).queryByRole("region", { name: imageMadeFromThis() }),
			).not.toBeInTheDocument(),
		);
		expect(
			server
				.readRequests("GET", `/api/generations/${parentId}/family`)
				.map((request) => request.search.get("imageIndex")),
		).toEqual(["2", "3"]);
		expect(
			server
				.readRequests("GET", `/api/generations/${childId}/family`)
				.map((request) => request.search.get("imageIndex")),
		).toEqual(["0"]);
	});
});
