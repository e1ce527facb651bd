// The generator's form and its empty result panel, before anything is generated.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ASPECT_RATIOS } from "../../../shared/generations/aspect-ratios";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	getResultPanel,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";

afterEach(cleanUpGeneratorScreen);

describe("the prompt form", () => {
	it("fills in the prompt and ratio the address names, once (Use prompt in the history)", async () => {
		const { readLocation } = await openGenerator({
			path: "/?prompt=A+lighthouse+%3Cb%3Eat%3C%2Fb%3E+dusk&ratio=21%3A9",
		});
		const box = getPromptBox();

		expect(box).toHaveValue("A lighthouse bat/b dusk");
		expect(box).toHaveFocus();
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveTextContent(
			"Landscape (ultrawide)",
		);
		// Taken out of the address, so a reload starts from an empty form.
		await waitFor(() => expect(readLocation()).toBe("/"));
		expect(getGenerateButton()).toBeEnabled();
	});

	it("ignores a ratio in the address that is not one of the options", async () => {
		await openGenerator({ path: "/?prompt=A+fox&ratio=5:4" });

		expect(getPromptBox()).toHaveValue("A fox");
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveTextContent("Square");
	});

	it("has a 6-row prompt box with its placeholder, a live counter and a clear button", async () => {
		const { user } = await openGenerator();
		const box = getPromptBox();

		expect(box).toHaveAttribute("rows", "6");
		expect(box).toHaveAttribute("placeholder", "Describe your vision...");
		expect(box).toHaveAttribute("maxLength", "500");
		expect(screen.getByText("0/500")).toBeVisible();

		await user.type(box, "A red fox");
		expect(screen.getByText("9/500")).toBeVisible();

		await user.click(screen.getByRole("button", { name: "Clear prompt" }));
		expect(box).toHaveValue("");
		expect(box).toHaveFocus();
		expect(screen.getByText("0/500")).toBeVisible();
	});

	it("strips angle brackets and cuts pasted text to 500 characters", async () => {
		const { user } = await openGenerator();
		const box = getPromptBox();

		await user.type(box, "a <b>bold</b> cat");
		expect(box).toHaveValue("a bbold/b cat");

		await user.clear(box);
		await user.paste("x".repeat(620));
		expect(box).toHaveValue("x".repeat(500));
		expect(screen.getByText("500/500")).toBeVisible();
	});

	it("keeps Generate disabled while the prompt is invalid, and says why under the box", async () => {
		const { user } = await openGenerator();
		const box = getPromptBox();
		expect(getGenerateButton()).toBeDisabled();

		await user.type(box, "   ");
		expect(screen.getByText("Prompt cannot be empty")).toBeVisible();
		expect(box).toHaveAttribute("aria-invalid", "true");
		expect(getGenerateButton()).toBeDisabled();

		await user.clear(box);
		await user.type(box, "javascript:alert(1)");
		expect(screen.getByText("Prompt contains invalid content")).toBeVisible();
		expect(getGenerateButton()).toBeDisabled();

		await user.clear(box);
		await user.type(box, "a cat onmouseover=steal()");
		expect(screen.getByText("Prompt contains invalid content")).toBeVisible();

		await user.clear(box);
		await user.type(box, "A calm lake at dawn");
		expect(screen.queryByText(/^Prompt /)).not.toBeInTheDocument();
		expect(box).not.toHaveAttribute("aria-invalid");
		expect(getGenerateButton()).toBeEnabled();
	});
});

describe("the aspect-ratio dropdown", () => {
	it("offers the six ratios, Square first and chosen, as a listbox", async () => {
		const { user } = await openGenerator();
		const combobox = screen.getByRole("combobox", { name: "Aspect ratio" });
		expect(combobox).toHaveTextContent("Square");
		expect(combobox).toHaveAttribute("aria-expanded", "false");

		await user.click(combobox);

		expect(combobox).toHaveAttribute("aria-expanded", "true");
		const listbox = screen.getByRole("listbox", { name: "Aspect ratio" });
		const options = within(listbox).getAllByRole("option");
		expect(options.map((option) => option.textContent?.replace(/\d+:\d+$/, ""))).toEqual(
			ASPECT_RATIOS.map((option) => option.label),
		);
		expect(within(listbox).getByRole("option", { name: "Square" })).toHaveAttribute(
			"aria-selected",
			"true",
		);

		await user.click(within(listbox).getByRole("option", { name: "Portrait (vertical)" }));
		expect(combobox).toHaveTextContent("Portrait (vertical)");
		expect(combobox).toHaveAttribute("aria-expanded", "false");
	});

	it("closes on a click elsewhere without changing the choice", async () => {
		const { user } = await openGenerator();
		const combobox = screen.getByRole("combobox", { name: "Aspect ratio" });

		await user.click(combobox);
		await user.keyboard("{ArrowDown}");
		await user.click(screen.getByRole("heading", { level: 1 }));

		expect(combobox).toHaveAttribute("aria-expanded", "false");
		expect(combobox).toHaveTextContent("Square");
	});
});

describe("the empty result panel", () => {
	it("starts empty, with three example prompts that fill the box and a tip", async () => {
		const { user } = await openGenerator();
		const panel = getResultPanel();

		expect(within(panel).getByRole("heading", { name: "No images to display" })).toBeVisible();
		const examples = within(panel)
			.getAllByRole("button")
			.map((button) => button.textContent);
		expect(examples).toEqual([
			"An anime boy with blue hair --niji 6",
			"A woman soldier in a black suit, portrait photoshoot",
			"An hourglass on a study desk, steampunk, intricate details, 8k",
		]);
		expect(within(panel).getByText(/Tip:/)).toBeVisible();

		await user.click(within(panel).getByRole("button", { name: /woman soldier/ }));
		expect(getPromptBox()).toHaveValue("A woman soldier in a black suit, portrait photoshoot");
		expect(getPromptBox()).toHaveFocus();
	});

	it("says when the built-in offline engine makes the images, and not otherwise", async () => {
		startGeneratorApi({ imageProvider: "local" });
		await openGenerator();
		expect(await screen.findByText("Built-in offline engine.")).toBeVisible();
	});

	it("says nothing about the engine when a real provider is configured", async () => {
		const server = startGeneratorApi({ imageProvider: "http" });
		await openGenerator();
		await waitFor(() => expect(server.readListRequests()).toHaveLength(1));
		expect(screen.queryByText("Built-in offline engine.")).not.toBeInTheDocument();
	});
});
