// Styles in the generator: the picker under Advanced settings with its preview, what a start
// sends, "Save as style", and a style restored by a link (Use prompt) or a dropped image's recipe.
import { screen, waitFor, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { PromptStyle } from "../../../shared/prompts/prompt-tool-responses";
import { buildGeneratorLink } from "../../lib/generations/generator-link";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";
import { findToast } from "../../testing/toasts";

afterEach(cleanUpGeneratorScreen);

const CINEMATIC: PromptStyle = {
	id: "cinematic",
	name: "Cinematic",
	prompt: "{prompt}, cinematic lighting",
	negativePrompt: "cartoon",
	scope: "operator",
};

const INK: PromptStyle = {
	id: "0b8f9e0c-5f4e-4d7a-9c39-2d1a51a3c6e7",
	name: "Ink",
	prompt: "ink drawing of {prompt}",
	negativePrompt: null,
	scope: "personal",
};

async function openAdvancedSettings(user: UserEvent): Promise<void> {
	const toggle = screen.getByRole("button", { name: "Advanced settings" });
	if (toggle.getAttribute("aria-expanded") !== "true") await user.click(toggle);
}

async function findStyleSelect(): Promise<HTMLSelectElement> {
	const select = await screen.findByRole("combobox", { name: "Style" });
	if (!(select instanceof HTMLSelectElement)) throw new Error("Style is not a select");
	return select;
}

describe("styles in the generator", () => {
	it("offers the server's styles and the person's own, previews the chosen one and sends it", async () => {
		const server = startGeneratorApi({ styles: [CINEMATIC, INK] });
		const { user } = await openGenerator();
		await openAdvancedSettings(user);
		const select = await findStyleSelect();
		await waitFor(() => expect(within(select).getAllByRole("option")).toHaveLength(3));
		expect(within(select).getByRole("group", { name: "Server styles" })).toBeInTheDocument();
		expect(within(select).getByRole("group", { name: "Your styles" })).toBeInTheDocument();

		await user.selectOptions(select, "cinematic");
		expect(select).toHaveAccessibleDescription(
			"Sends: …, cinematic lighting · leaves out: cartoon",
		);

		await user.type(getPromptBox(), "A lighthouse");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toMatchObject({
			prompt: "A lighthouse",
			style: "cinematic",
		});
	});

	it("sends no style when None is chosen", async () => {
		const server = startGeneratorApi({ styles: [CINEMATIC] });
		const { user } = await openGenerator();
		await openAdvancedSettings(user);
		await findStyleSelect();
		await user.type(getPromptBox(), "A lighthouse");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).not.toHaveProperty("style");
	});

	it("saves the prompt box's text as a style of one's own and chooses it, by keyboard", async () => {
		const server = startGeneratorApi();
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "soft watercolour, rough paper");
		await openAdvancedSettings(user);
		await user.click(await screen.findByRole("button", { name: "Save as style" }));
		const name = screen.getByRole("textbox", { name: "Style name" });
		expect(name).toHaveFocus();
		await user.keyboard("Watercolour{Enter}");

		await findToast('Style "Watercolour" saved');
		expect(server.readStyles()).toEqual([
			expect.objectContaining({
				name: "Watercolour",
				prompt: "{prompt}, soft watercolour, rough paper",
				scope: "personal",
			}),
		]);
		// Enter saved the style; it did not start a generation.
		expect(server.readCreateRequests()).toEqual([]);
		const select = await findStyleSelect();
		await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe("Watercolour"));
	});

	it("restores the style a Use prompt link names", async () => {
		startGeneratorApi({ styles: [CINEMATIC] });
		await openGenerator({
			path: buildGeneratorLink({
				prompt: "A harbour",
				aspectRatio: "--ar 1:1",
				style: { id: "cinematic" },
			}),
		});
		const select = await findStyleSelect();
		await waitFor(() => expect(select).toHaveValue("cinematic"));
	});

	it("drops a style the person no longer has instead of sending it", async () => {
		const server = startGeneratorApi({ styles: [CINEMATIC] });
		const { user } = await openGenerator({
			path: buildGeneratorLink({
				prompt: "A harbour",
				aspectRatio: "--ar 1:1",
				style: { id: "deleted-style" },
			}),
		});
		const select = await findStyleSelect();
		expect(select).toHaveValue("");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).not.toHaveProperty("style");
	});
});
