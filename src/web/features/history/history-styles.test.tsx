// A generation's style in the history: the chip on its card, which filters the history by that
// style (kept in the address), and Use prompt, which hands the style to the generator.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createTestGeneration } from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	findCard,
	findCards,
	hoursAgo,
	openHistory,
	readPrompts,
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { buildUsePromptLink } from "./cards/generation-reuse";

beforeEach(setUpHistoryScreen);
afterEach(cleanUpHistoryScreen);

const STYLED = createTestGeneration({
	prompt: "A styled harbour",
	created_at: hoursAgo(0.1),
	style: { id: "cinematic", name: "Cinematic" },
});
const PLAIN = createTestGeneration({ prompt: "A plain harbour", created_at: hoursAgo(0.2) });

describe("styles in the history", () => {
	it("shows a style chip that filters the history by the style, and a button that clears it", async () => {
		const server = startFakeGenerationsApi({ generations: [STYLED, PLAIN] });
		const { user } = openHistory();
		await findCards();
		expect(within(findCard("A plain harbour")).queryByRole("link", { name: /Style/ })).toBeNull();
		const chip = within(findCard("A styled harbour")).getByRole("link", {
			name: "Style Cinematic",
		});

		await user.click(chip);
		await waitFor(async () => expect(readPrompts(await findCards())).toEqual(["A styled harbour"]));
		expect(server.readListRequests().at(-1)?.get("style")).toBe("cinematic");
		const clear = screen.getByRole("button", { name: /Style: Cinematic/ });
		expect(clear).toHaveAttribute("aria-pressed", "true");

		await user.click(clear);
		await waitFor(async () => expect(await findCards()).toHaveLength(2));
		expect(server.readListRequests().at(-1)?.has("style")).toBe(false);
	});

	it("hands the style to the generator with Use prompt", () => {
		expect(new URL(buildUsePromptLink(STYLED), "http://x").searchParams.get("style")).toBe(
			"cinematic",
		);
		expect(new URL(buildUsePromptLink(PLAIN), "http://x").searchParams.has("style")).toBe(false);
	});
});
