// Boards from the history: Add to board from a card's menu and from the selection bar, and a
// board's page, the history of what is on the board.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Board } from "../../../shared/history/boards";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createTestGeneration } from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	findCard,
	findCards,
	openHistory,
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { findToast } from "../../testing/toasts";

const BOARD_ID = "3f0c2b7e-1a4d-4c8e-9f6b-2d7a5e1c9b40";

function createTestBoard(overrides: Partial<Board> = {}): Board {
	return {
		id: BOARD_ID,
		name: "Lighthouses",
		kind: "board",
		visibility: "private",
		query: null,
		count: 0,
		coverUrl: null,
		owner: { email: "person@example.com" },
		canChange: true,
		createdAt: "2026-11-20T09:12:00.000Z",
		updatedAt: "2026-11-27T17:40:00.000Z",
		...overrides,
	};
}

describe("boards in the history", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("puts a card's generation on a board from its menu, and says so", async () => {
		const generation = createTestGeneration({ prompt: "A lighthouse" });
		const server = startFakeGenerationsApi({
			generations: [generation],
			boards: [
				createTestBoard(),
				createTestBoard({
					id: crypto.randomUUID(),
					name: "Smart",
					kind: "smart",
					query: { q: "x" },
				}),
			],
		});
		const { user } = openHistory();
		// The first screen of this file loads the history's code cold: give it the time it takes.
		await screen.findAllByRole("article", {}, { timeout: 15_000 });
		await user.click(
			within(findCard("A lighthouse")).getByRole("button", { name: "More actions" }),
		);
		await user.click(await screen.findByRole("menuitem", { name: "Add to board…" }));
		const dialog = await screen.findByRole("dialog", { name: "Add to board" });
		// A smart board takes nothing: only boards are offered.
		expect(within(dialog).queryByRole("button", { name: /Smart/ })).toBeNull();
		await user.click(within(dialog).getByRole("button", { name: /Lighthouses/ }));
		await findToast("Added 1 generation to Lighthouses");
		const [request] = server.readRequests("POST", `/api/boards/${BOARD_ID}/generations`);
		expect(request?.body).toEqual({ ids: [generation.id] });
		await waitFor(() => expect(screen.queryByRole("dialog", { name: "Add to board" })).toBeNull());
	});

	it("shows a board's page as the history of what is on it, asking with the board's id", async () => {
		const server = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "On the board" })],
			boards: [createTestBoard({ visibility: "shared" })],
		});
		openHistory({ path: `/boards/${BOARD_ID}?q=board` });
		await findCards();
		expect(screen.getByRole("heading", { level: 1, name: "Lighthouses" })).toBeInTheDocument();
		expect(screen.getByRole("link", { name: /Download board/ })).toHaveAttribute(
			"href",
			expect.stringContaining(`/api/boards/${BOARD_ID}/archive`),
		);
		const [search] = server.readListRequests();
		expect(search?.get("board")).toBe(BOARD_ID);
		expect(search?.get("q")).toBe("board");
	});

	it("narrows a board's page to one batch by its chip, the board kept, in the address and the request", async () => {
		const batchId = "0b7c3d7e-2f1a-4c5b-9d8e-7f6a5b4c3d2e";
		const server = startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "A red lighthouse", batchId }),
				createTestGeneration({ prompt: "A blue lighthouse", batchId }),
				createTestGeneration({ prompt: "A lone lighthouse" }),
			],
			boards: [createTestBoard()],
		});
		const { user } = openHistory({ path: `/boards/${BOARD_ID}` });
		await findCards();
		const chip = within(findCard("A red lighthouse")).getByRole("link", {
			name: "Batch: show the generations started with this one",
		});
		expect(chip).toHaveAttribute("href", `/boards/${BOARD_ID}?batch=${batchId}`);
		await user.click(chip);
		await waitFor(() => expect(server.readListRequests().at(-1)?.get("batch")).toBe(batchId));
		expect(server.readListRequests().at(-1)?.get("board")).toBe(BOARD_ID);
		expect(screen.getByRole("heading", { level: 1, name: "Lighthouses" })).toBeInTheDocument();

		await user.click(screen.getByRole("button", { name: /One batch/ }));
		await waitFor(() => expect(server.readListRequests().at(-1)?.has("batch")).toBe(false));
		expect(server.readListRequests().at(-1)?.get("board")).toBe(BOARD_ID);
	});

	it("keeps a board's page and its batch together from the address, as after a reload", async () => {
		const batchId = "0b7c3d7e-2f1a-4c5b-9d8e-7f6a5b4c3d2e";
		const server = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "A red lighthouse", batchId })],
			boards: [createTestBoard()],
		});
		openHistory({ path: `/boards/${BOARD_ID}?batch=${batchId}` });
		await findCards();
		const [request] = server.readListRequests();
		expect(request?.get("board")).toBe(BOARD_ID);
		expect(request?.get("batch")).toBe(batchId);
		expect(screen.getByRole("button", { name: /One batch/ })).toHaveAttribute(
			"aria-pressed",
			"true",
		);
	});

	it("offers none of the owner's changes on another person's board shared read-only", async () => {
		startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Their lighthouse" })],
			boards: [
				createTestBoard({
					visibility: "shared",
					owner: { email: "owner@example.com" },
					canChange: false,
				}),
			],
		});
		const { user } = openHistory({ path: `/boards/${BOARD_ID}` });
		await findCards();
		expect(screen.getByText("Shared by owner@example.com · read-only")).toBeInTheDocument();
		// The board's own changes: its visibility, name and deletion.
		for (const name of ["Share", "Make private", "Rename", "Delete board"]) {
			expect(screen.queryByRole("button", { name })).toBeNull();
		}
		// The card's: no favourite, no Delete, nothing put on or taken off a board.
		const card = findCard("Their lighthouse");
		expect(within(card).queryByRole("button", { name: "Favourite" })).toBeNull();
		expect(within(card).queryByRole("button", { name: "Delete" })).toBeNull();
		await user.click(within(card).getByRole("button", { name: "More actions" }));
		expect(await screen.findByRole("menuitem", { name: "Copy prompt" })).toBeInTheDocument();
		expect(screen.queryByRole("menuitem", { name: "Add to board…" })).toBeNull();
		expect(screen.queryByRole("menuitem", { name: "Remove from board" })).toBeNull();
		await user.keyboard("{Escape}");
		// The preview's.
		await user.click(within(card).getByRole("button", { name: "Preview image 1 of 4" }));
		const preview = await screen.findByRole("dialog");
		expect(within(preview).getByRole("link", { name: /Download image/ })).toBeInTheDocument();
		for (const name of ["Favourite", "Delete", "Add to board", "Remove from board"]) {
			expect(within(preview).queryByRole("button", { name })).toBeNull();
		}
		await user.keyboard("{Escape}");
		await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
		// The selection's: a download, no deletion.
		await user.click(screen.getByRole("button", { name: "Select" }));
		const bar = await screen.findByRole("region", { name: "Selection" });
		expect(within(bar).getByRole("button", { name: /Download/ })).toBeInTheDocument();
		expect(within(bar).queryByRole("button", { name: "Delete" })).toBeNull();
		expect(within(bar).queryByRole("button", { name: /board/ })).toBeNull();
	});

	it("says a board that is not there, or not shared, cannot be shown", async () => {
		startFakeGenerationsApi({ boards: [] });
		openHistory({ path: `/boards/${BOARD_ID}` });
		expect(
			await screen.findByRole("heading", { level: 1, name: "Board not found" }),
		).toBeInTheDocument();
	});
});
