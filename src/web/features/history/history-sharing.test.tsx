// Shared links from the history: Share in a card's menu, Share board on a board's page, and
// neither where the server has no shared links (SHARING=off).
import { screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Board } from "../../../shared/history/boards";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { startFakeSharesServer } from "../../testing/fakes/fake-shares-server";
import { createTestGeneration } from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	findCard,
	openHistory,
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { mswServer } from "../../testing/msw-server";

const BOARD_ID = "3f0c2b7e-1a4d-4c8e-9f6b-2d7a5e1c9b41";
const OWNER = "owner@example.com";

function createTestBoard(overrides: Partial<Board> = {}): Board {
	return {
		id: BOARD_ID,
		name: "Harbours",
		kind: "board",
		visibility: "private",
		query: null,
		count: 1,
		coverUrl: null,
		owner: { email: OWNER },
		canChange: true,
		createdAt: "2026-11-20T09:12:00.000Z",
		updatedAt: "2026-11-27T17:40:00.000Z",
		...overrides,
	};
}

/** The server's SHARING switch, as GET /api/config tells it. */
function answerSharing(sharing: "off" | "signed-in" | "public") {
	mswServer.use(
		http.get("*/api/config", () =>
			HttpResponse.json({ googleEnabled: false, imageProvider: "local", sharing }),
		),
	);
}

async function openCardMenu(user: ReturnType<typeof openHistory>["user"], prompt: string) {
	await screen.findAllByRole("article", {}, { timeout: 15_000 });
	await user.click(within(findCard(prompt)).getByRole("button", { name: "More actions" }));
	return screen.findByRole("menu");
}

describe("sharing from the history", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("shares a card's generation from its menu", async () => {
		const generation = createTestGeneration({ prompt: "A harbour" });
		startFakeGenerationsApi({ generations: [generation] });
		const shares = startFakeSharesServer();
		const { user } = openHistory({ user: { email: OWNER } });
		const menu = await openCardMenu(user, "A harbour");
		await user.click(within(menu).getByRole("menuitem", { name: "Share…" }));
		const dialog = await screen.findByRole("dialog", { name: "Share" });
		await user.click(within(dialog).getByRole("button", { name: "Create link" }));
		await within(dialog).findByRole("textbox", { name: /Your link/ });
		expect(shares.readRequests()).toEqual([
			{
				target: { generationId: generation.id },
				expires: "7d",
				originals: false,
				showPrompt: true,
			},
		]);
	});

	it("offers Share board to the board's owner, and shares the board", async () => {
		startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "On the board" })],
			boards: [createTestBoard()],
		});
		const shares = startFakeSharesServer();
		const { user } = openHistory({ path: `/boards/${BOARD_ID}`, user: { email: OWNER } });
		await user.click(await screen.findByRole("button", { name: "Share board" }));
		const dialog = await screen.findByRole("dialog", { name: "Share board" });
		await user.click(within(dialog).getByRole("button", { name: "Create link" }));
		await within(dialog).findByRole("textbox", { name: /Your link/ });
		expect(shares.readRequests()).toMatchObject([{ target: { boardId: BOARD_ID } }]);
	});

	it("offers no Share board on a board someone else shares", async () => {
		startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "On their board" })],
			boards: [createTestBoard({ visibility: "shared", canChange: false })],
		});
		openHistory({ path: `/boards/${BOARD_ID}`, user: { email: "viewer@example.com" } });
		await screen.findByRole("link", { name: /Download board/ });
		await screen.findAllByRole("article", {}, { timeout: 15_000 });
		expect(screen.queryByRole("button", { name: "Share board" })).toBeNull();
	});

	it("hides Share everywhere where the server has no shared links", async () => {
		startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Not shared" })],
			boards: [createTestBoard()],
		});
		answerSharing("off");
		const { user } = openHistory({ path: `/boards/${BOARD_ID}`, user: { email: OWNER } });
		const menu = await openCardMenu(user, "Not shared");
		expect(within(menu).getByRole("menuitem", { name: "Copy prompt" })).toBeVisible();
		expect(within(menu).queryByRole("menuitem", { name: "Share…" })).toBeNull();
		await user.keyboard("{Escape}");
		expect(screen.queryByRole("button", { name: "Share board" })).toBeNull();
		await user.click(
			within(findCard("Not shared")).getByRole("button", { name: /^Preview image 1/ }),
		);
		const preview = await screen.findByRole("dialog", { name: /^Image 1/ });
		expect(within(preview).getByRole("link", { name: /Download image/ })).toBeVisible();
		expect(within(preview).queryByRole("button", { name: "Share" })).toBeNull();
	});
});
