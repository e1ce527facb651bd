// A batch in the history: the chip on each card of one, which shows the batch alone (kept in the
// address, ?batch=), and the toolbar's button that shows everything again.
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

beforeEach(setUpHistoryScreen);
afterEach(cleanUpHistoryScreen);

const BATCH_ID = "0b7c3d7e-2f1a-4c5b-9d8e-7f6a5b4c3d2e";
const RED = createTestGeneration({
	prompt: "a red car",
	created_at: hoursAgo(0.1),
	batchId: BATCH_ID,
});
const BLUE = createTestGeneration({
	prompt: "a blue car",
	created_at: hoursAgo(0.1),
	batchId: BATCH_ID,
});
const ALONE = createTestGeneration({ prompt: "a green car", created_at: hoursAgo(0.3) });

describe("batches in the history", () => {
	it("shows a batch chip that lists the batch alone, and a button that shows everything again", async () => {
		const server = startFakeGenerationsApi({ generations: [RED, BLUE, ALONE] });
		const { user } = openHistory();
		await findCards();
		expect(within(findCard("a green car")).queryByRole("link", { name: /Batch/ })).toBeNull();
		const chip = within(findCard("a red car")).getByRole("link", {
			name: "Batch: show the generations started with this one",
		});
		expect(chip).toHaveAttribute("href", `/generations?batch=${BATCH_ID}`);

		await user.click(chip);
		await waitFor(async () =>
			expect(readPrompts(await findCards()).sort()).toEqual(["a blue car", "a red car"]),
		);
		expect(server.readListRequests().at(-1)?.get("batch")).toBe(BATCH_ID);
		const clear = screen.getByRole("button", { name: /One batch/ });
		expect(clear).toHaveAttribute("aria-pressed", "true");

		await user.click(clear);
		await waitFor(async () => expect(await findCards()).toHaveLength(3));
		expect(server.readListRequests().at(-1)?.has("batch")).toBe(false);
	});
});
