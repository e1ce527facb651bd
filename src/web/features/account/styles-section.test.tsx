import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { PromptStyle } from "../../../shared/prompts/prompt-tool-responses";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { createFakePromptTools } from "../../testing/fakes/fake-prompt-tools-api";
import { mswServer } from "../../testing/msw-server";
import { renderWithProviders } from "../../testing/render-app";
import { StylesSection } from "./styles-section";

const OPERATOR: PromptStyle = {
	id: "cinematic",
	name: "Cinematic",
	prompt: "{prompt}, cinematic lighting",
	negativePrompt: null,
	scope: "operator",
};

const INK: PromptStyle = {
	id: "0b8f9e0c-5f4e-4d7a-9c39-2d1a51a3c6e7",
	name: "Ink",
	prompt: "ink drawing of {prompt}",
	negativePrompt: "colour",
	scope: "personal",
};

function renderSection(styles: PromptStyle[]) {
	const fake = createFakePromptTools({ styles });
	mswServer.use(...fake.handlers);
	startFakeAuthServer({ signedInAs: createTestUser() });
	return { ...renderWithProviders(<StylesSection />), fake };
}

describe("the account page's styles", () => {
	it("lists only the person's own styles, each with what it adds", async () => {
		renderSection([OPERATOR, INK]);
		const list = await screen.findByRole("list", { name: "Your styles" });
		const rows = within(list).getAllByRole("listitem");
		expect(rows).toHaveLength(1);
		expect(rows[0]).toHaveTextContent("Ink");
		expect(rows[0]).toHaveTextContent("ink drawing of … · leaves out: colour");
	});

	it("renames a style with the keyboard", async () => {
		const { user, fake } = renderSection([INK]);
		await user.click(await screen.findByRole("button", { name: "Rename Ink" }));
		const field = screen.getByRole("textbox", { name: "New name for Ink" });
		expect(field).toHaveFocus();
		await user.clear(field);
		await user.keyboard("Brush ink{Enter}");
		await waitFor(() => expect(fake.readStyles()[0]?.name).toBe("Brush ink"));
		expect(await screen.findByText("Brush ink")).toBeInTheDocument();
	});

	it("deletes a style once asked and confirmed", async () => {
		const { user, fake } = renderSection([INK]);
		await user.click(await screen.findByRole("button", { name: "Delete Ink" }));
		const dialog = await screen.findByRole("alertdialog", { name: "Delete the style “Ink”?" });
		await user.click(within(dialog).getByRole("button", { name: "Delete" }));
		expect(await screen.findByText("You have no styles of your own yet.")).toBeInTheDocument();
		expect(fake.readStyles()).toEqual([]);
	});
});
