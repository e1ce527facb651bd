// The generator's keyboard journeys: the aspect-ratio menu and the screen's shortcuts.
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";

afterEach(cleanUpGeneratorScreen);

describe("the generator from the keyboard", () => {
	it("works from the keyboard: arrows, Home, End, Enter, Escape, Tab and type-ahead", async () => {
		const { user } = await openGenerator();
		const combobox = screen.getByRole("combobox", { name: "Aspect ratio" });
		const activeOption = () =>
			document.getElementById(combobox.getAttribute("aria-activedescendant") ?? "");
		combobox.focus();

		await user.keyboard("{ArrowDown}");
		expect(combobox).toHaveAttribute("aria-expanded", "true");
		expect(activeOption()).toHaveTextContent("Square");
		await user.keyboard("{ArrowDown}{ArrowDown}");
		expect(activeOption()).toHaveTextContent("Landscape (widescreen)");
		await user.keyboard("{Enter}");
		expect(combobox).toHaveTextContent("Landscape (widescreen)");
		expect(combobox).toHaveAttribute("aria-expanded", "false");

		await user.keyboard("{ArrowDown}{End}");
		expect(activeOption()).toHaveTextContent("Portrait (vertical)");
		await user.keyboard("{Home}");
		expect(activeOption()).toHaveTextContent("Square");
		await user.keyboard("{Escape}");
		expect(combobox).toHaveAttribute("aria-expanded", "false");
		expect(combobox).toHaveTextContent("Landscape (widescreen)");

		// Type-ahead opens the list on the first match; the same letter again moves to the next.
		await user.keyboard("p");
		expect(activeOption()).toHaveTextContent("Portrait (classic photo)");
		await user.keyboard("p");
		expect(activeOption()).toHaveTextContent("Portrait (vertical)");
		await user.keyboard("{Enter}");
		expect(combobox).toHaveTextContent("Portrait (vertical)");

		// Tab takes the highlighted option along and moves on.
		await user.keyboard("{ArrowUp}");
		expect(activeOption()).toHaveTextContent("Square");
		await user.keyboard("{ArrowDown}");
		await user.tab();
		expect(combobox).toHaveTextContent("Landscape (classic photo)");
		expect(combobox).not.toHaveFocus();
	});

	it("does not clear anything when Escape closes the dropdown", async () => {
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A quiet harbour");
		await user.click(screen.getByRole("combobox", { name: "Aspect ratio" }));

		await user.keyboard("{Escape}");

		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveAttribute(
			"aria-expanded",
			"false",
		);
		expect(getPromptBox()).toHaveValue("A quiet harbour");
	});

	it("clears the prompt and the result on Escape outside the text box, not inside it", async () => {
		startGeneratorApi();
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A green comet");
		await user.click(screen.getByRole("combobox", { name: "Aspect ratio" }));
		await user.click(screen.getByRole("option", { name: "Portrait (classic photo)" }));
		await user.click(getGenerateButton());
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();

		getPromptBox().focus();
		await user.keyboard("{Escape}");
		expect(getPromptBox()).toHaveValue("A green comet");
		expect(screen.getByRole("heading", { name: "4 images" })).toBeVisible();

		getGenerateButton().focus();
		await user.keyboard("{Escape}");
		expect(getPromptBox()).toHaveValue("");
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveTextContent("Square");
		expect(screen.getByRole("heading", { name: "No images to display" })).toBeVisible();
	});

	it("generates on Ctrl or Cmd + Enter outside the text box, not inside it", async () => {
		const server = startGeneratorApi();
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A violet sky");
		await user.keyboard("{Control>}{Enter}{/Control}");
		expect(server.readCreateRequests()).toEqual([]);

		await user.click(screen.getByRole("heading", { level: 1 }));
		await user.keyboard("{Control>}{Enter}{/Control}");
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();

		await user.keyboard("{Meta>}{Enter}{/Meta}");
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
	});

	it("focuses the prompt on Ctrl or Cmd + K", async () => {
		const { user } = await openGenerator();

		await user.click(screen.getByRole("heading", { level: 1 }));
		await user.keyboard("{Control>}k{/Control}");
		expect(getPromptBox()).toHaveFocus();

		screen.getByRole("combobox", { name: "Aspect ratio" }).focus();
		await user.keyboard("{Meta>}k{/Meta}");
		expect(getPromptBox()).toHaveFocus();
	});
});
