// The models people choose from and the settings each offers: the Model control, Images and the
// Advanced settings following the chosen model, what a start sends, and the model and seed shown.
import { screen, waitFor, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { MODEL_NO_LONGER_OFFERED } from "../../../shared/generations/generation-settings";
import type { PublicModel } from "../../../shared/generations/models";
import { buildGeneratorLink } from "../../lib/generations/generator-link";
import {
	createGate,
	createRunningGeneration,
	createTestModel,
} from "../../testing/fakes/test-generations";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	getResultPanel,
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
	description: "One or two quick drafts",
	pricePerImage: 0.01,
	counts: [1, 2],
	negativePrompt: false,
};

const PAINTER: PublicModel = {
	...LOCAL,
	id: "painter",
	label: "Painter",
	description: null,
	pricePerImage: 0.04,
	counts: [1],
	seed: false,
	negativePrompt: false,
	qualities: ["low", "medium", "high"],
};

function getModelSelect(): HTMLElement {
	return screen.getByRole("combobox", { name: "Model" });
}

function readCounts(): string[] {
	const group = screen.getByRole("radiogroup", { name: "Images" });
	return within(group)
		.getAllByRole("radio")
		.map((radio) => radio.getAttribute("value") ?? "");
}

function getCount(count: number): HTMLElement {
	const group = screen.getByRole("radiogroup", { name: "Images" });
	return within(group).getByRole("radio", { name: count === 1 ? "1 image" : `${count} images` });
}

async function openAdvancedSettings(user: UserEvent): Promise<void> {
	const toggle = screen.getByRole("button", { name: "Advanced settings" });
	if (toggle.getAttribute("aria-expanded") !== "true") await user.click(toggle);
}

describe("the Model control", () => {
	it("is not there when one model is offered; Images and the Advanced settings are", async () => {
		startGeneratorApi();
		const { user } = await openGenerator();

		expect(screen.queryByRole("combobox", { name: "Model" })).not.toBeInTheDocument();
		expect(readCounts()).toEqual(["1", "2", "3", "4"]);
		expect(getCount(4)).toBeChecked();

		await openAdvancedSettings(user);
		expect(screen.getByRole("spinbutton", { name: "Seed" })).toHaveValue(null);
		expect(screen.getByRole("textbox", { name: "Negative prompt" })).toBeVisible();
		expect(screen.queryByRole("radiogroup", { name: "Quality" })).not.toBeInTheDocument();
	});

	it("offers each model with its label, description and price per image", async () => {
		startGeneratorApi({ models: [LOCAL, SKETCH, PAINTER] });
		await openGenerator();

		const options = within(getModelSelect()).getAllByRole("option");
		expect(options.map((option) => option.textContent)).toEqual([
			"Offline engine",
			"Quick sketch — One or two quick drafts · $0.01 per image",
			"Painter · $0.04 per image",
		]);
		expect(getModelSelect()).toHaveValue("local");
	});

	it("starts from the person's last model, the default otherwise", async () => {
		startGeneratorApi({
			models: [LOCAL, SKETCH],
			preferredModelId: "sketch",
		});
		await openGenerator();

		expect(getModelSelect()).toHaveValue("sketch");
		expect(readCounts()).toEqual(["1", "2"]);
		expect(getCount(2)).toBeChecked();
	});
});

describe("the settings follow the chosen model", () => {
	it("snaps the count, hides what the model lacks and does not send it", async () => {
		const server = startGeneratorApi({ models: [LOCAL, SKETCH] });
		const { user } = await openGenerator();

		await user.click(getCount(3));
		await openAdvancedSettings(user);
		await user.type(screen.getByRole("textbox", { name: "Negative prompt" }), "people");
		await user.type(screen.getByRole("spinbutton", { name: "Seed" }), "42");

		await user.selectOptions(getModelSelect(), "sketch");
		expect(readCounts()).toEqual(["1", "2"]);
		expect(getCount(2)).toBeChecked();
		expect(screen.queryByRole("textbox", { name: "Negative prompt" })).not.toBeInTheDocument();
		expect(screen.getByRole("spinbutton", { name: "Seed" })).toHaveValue(42);

		await user.type(getPromptBox(), "A quiet harbour");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toEqual({
			prompt: "A quiet harbour",
			aspectRatio: "--ar 1:1",
			model: "sketch",
			count: 2,
			seed: 42,
		});
	});

	it("brings a setting back with its text when a model that offers it is chosen again", async () => {
		startGeneratorApi({ models: [LOCAL, SKETCH] });
		const { user } = await openGenerator();
		await openAdvancedSettings(user);
		await user.type(screen.getByRole("textbox", { name: "Negative prompt" }), "fog");

		await user.selectOptions(getModelSelect(), "sketch");
		await user.selectOptions(getModelSelect(), "local");

		expect(screen.getByRole("textbox", { name: "Negative prompt" })).toHaveValue("fog");
	});

	it("offers Quality where the model has it, and no Seed where it takes none", async () => {
		const server = startGeneratorApi({ models: [LOCAL, PAINTER] });
		const { user } = await openGenerator();

		await user.selectOptions(getModelSelect(), "painter");
		await openAdvancedSettings(user);
		expect(readCounts()).toEqual(["1"]);
		expect(screen.queryByRole("spinbutton", { name: "Seed" })).not.toBeInTheDocument();
		const quality = screen.getByRole("radiogroup", { name: "Quality" });
		// None picked until the person picks one: the model's own quality is used meanwhile.
		for (const level of within(quality).getAllByRole("radio")) expect(level).not.toBeChecked();
		await user.click(within(quality).getByRole("radio", { name: "High" }));

		await user.type(getPromptBox(), "A still life");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toEqual({
			prompt: "A still life",
			aspectRatio: "--ar 1:1",
			model: "painter",
			count: 1,
			quality: "high",
		});
	});

	it("offers only the model's ratios, and moves off one it lacks", async () => {
		const wide: PublicModel = {
			...SKETCH,
			id: "wide",
			label: "Wide",
			ratios: ["--ar 16:9", "--ar 21:9"],
		};
		startGeneratorApi({ models: [LOCAL, wide] });
		const { user } = await openGenerator();
		const ratio = screen.getByRole("combobox", { name: "Aspect ratio" });
		expect(ratio).toHaveTextContent("Square");

		await user.selectOptions(getModelSelect(), "wide");
		expect(ratio).toHaveTextContent("Landscape (widescreen)");
		await user.click(ratio);
		const listbox = screen.getByRole("listbox", { name: "Aspect ratio" });
		expect(within(listbox).getAllByRole("option")).toHaveLength(2);
	});

	it("holds the negative prompt to the prompt's rules", async () => {
		const server = startGeneratorApi();
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A garden");
		await openAdvancedSettings(user);

		const negative = screen.getByRole("textbox", { name: "Negative prompt" });
		await user.type(negative, "javascript:alert(1)");

		expect(screen.getByText("Negative prompt contains invalid content")).toBeVisible();
		expect(negative).toHaveAttribute("aria-invalid", "true");
		expect(getGenerateButton()).toBeDisabled();
		expect(server.readCreateRequests()).toEqual([]);
	});

	it("marks the setting a refused start names, like the prompt", async () => {
		const message = "seed must be a whole number from 0 to 4294967295, or -1 for a random seed";
		startGeneratorApi({ start: { kind: "refused", code: "VALIDATION_ERROR", message } });
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A comet");
		await user.click(getGenerateButton());

		expect(await within(getResultPanel()).findByRole("alert")).toHaveTextContent(message);
		const seed = await screen.findByRole("spinbutton", { name: "Seed" });
		expect(seed).toHaveAttribute("aria-invalid", "true");
		expect(seed).toHaveAccessibleDescription(message);
	});
});

describe("a link's settings", () => {
	it("fills in the model and settings of Use settings, seed included", async () => {
		const server = startGeneratorApi({ models: [LOCAL, SKETCH] });
		const link = buildGeneratorLink(
			{
				prompt: "A red kite",
				aspectRatio: "--ar 3:2",
				model: { id: "sketch" },
				settings: { count: 1, seed: 77, negativePrompt: null, quality: null },
			},
			{ withSeed: true },
		);
		const { user } = await openGenerator({ path: link });

		expect(getModelSelect()).toHaveValue("sketch");
		expect(getCount(1)).toBeChecked();
		expect(screen.getByRole("spinbutton", { name: "Seed" })).toHaveValue(77);

		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toEqual({
			prompt: "A red kite",
			aspectRatio: "--ar 3:2",
			model: "sketch",
			count: 1,
			seed: 77,
		});
	});

	it("says a model is no longer offered, and keeps the rest of the link", async () => {
		startGeneratorApi({ models: [LOCAL, SKETCH] });
		const link = buildGeneratorLink({
			prompt: "A red kite",
			aspectRatio: "--ar 3:2",
			model: { id: "retired" },
			settings: { count: 2, seed: 5, negativePrompt: "clouds", quality: null },
		});
		await openGenerator({ path: link });

		expect(await findToast(MODEL_NO_LONGER_OFFERED)).toBeVisible();
		expect(getPromptBox()).toHaveValue("A red kite");
		expect(getModelSelect()).toHaveValue("local");
		expect(getCount(2)).toBeChecked();
		expect(screen.getByRole("textbox", { name: "Negative prompt" })).toHaveValue("clouds");
		// Use prompt leaves the seed random.
		expect(screen.getByRole("spinbutton", { name: "Seed" })).toHaveValue(null);
	});

	it("keeps the seed of Use settings when the person's last model takes none: the default stands in", async () => {
		startGeneratorApi({
			models: [PAINTER, LOCAL],
			defaultModelId: "local",
			preferredModelId: "painter",
		});
		const link = buildGeneratorLink(
			{
				prompt: "A red kite",
				aspectRatio: "--ar 3:2",
				model: { id: "retired" },
				settings: { count: 2, seed: 5, negativePrompt: null, quality: null },
			},
			{ withSeed: true },
		);
		await openGenerator({ path: link });

		expect(await findToast(MODEL_NO_LONGER_OFFERED)).toBeVisible();
		expect(getModelSelect()).toHaveValue("local");
		expect(getCount(2)).toBeChecked();
		expect(screen.getByRole("button", { name: "Advanced settings" })).toHaveAttribute(
			"aria-expanded",
			"true",
		);
		expect(screen.getByRole("spinbutton", { name: "Seed" })).toHaveValue(5);
	});
});

describe("the model and seed of the results", () => {
	it("shows the model's label and the seed drawn, in the results and the preview", async () => {
		const server = startGeneratorApi({ models: [LOCAL, SKETCH] });
		const { user } = await openGenerator();
		await user.selectOptions(getModelSelect(), "sketch");
		await user.type(getPromptBox(), "A paper boat");
		await user.click(getGenerateButton());

		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "2 images" })).toBeVisible();
		expect(within(panel).getByText("Quick sketch")).toBeVisible();
		const seed = server.readGenerations()[0]?.settings.seed;
		expect(seed).toEqual(expect.any(Number));
		expect(within(panel).getByText(String(seed))).toBeVisible();

		await user.click(within(panel).getByRole("button", { name: "Open image 1 of 2" }));
		const preview = await screen.findByRole("dialog", { name: "Image 1 of 2" });
		expect(within(preview).getByText(`Quick sketch · Seed ${seed}`)).toBeVisible();
	});

	it("shows the seed asked for", async () => {
		startGeneratorApi();
		const { user } = await openGenerator();
		await openAdvancedSettings(user);
		await user.type(screen.getByRole("spinbutton", { name: "Seed" }), "1234");
		await user.type(getPromptBox(), "A paper boat");
		await user.click(getGenerateButton());

		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(within(panel).getByText("Offline engine")).toBeVisible();
		expect(within(panel).getByText("1234")).toBeVisible();
	});

	it("shows them for a generation picked up again, from its record", async () => {
		const running = createRunningGeneration({
			model: { id: "sketch", label: "Quick sketch" },
			settings: { count: 2, seed: 99, negativePrompt: null, quality: null },
		});
		const pollGate = createGate();
		startGeneratorApi({
			generations: [running],
			models: [LOCAL, SKETCH],
			pollGates: new Map([[0, pollGate.opened]]),
		});
		await openGenerator();

		expect(await screen.findByText("Quick sketch · Seed 99")).toBeVisible();
		pollGate.release();
		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "2 images" })).toBeVisible();
		expect(within(panel).getByText("Quick sketch")).toBeVisible();
		expect(within(panel).getByText("99")).toBeVisible();
	});
});
