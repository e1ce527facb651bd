import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { BoardListSchema } from "../../shared/history/boards";
import { makeBoard, putOnBoard, readBoardPage } from "../testing/board-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { minutesAgo, seedGeneration } from "../testing/history-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";

// Another person's board shared with the instance is read-only (decision 032): each change the
// board's page could offer its owner is refused to anyone else, and changes nothing.

describe.each(availableDatabaseKinds())("a shared board seen by another on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
	});
	afterAll(async () => {
		await server.close();
	});

	async function setUpSharedBoard() {
		const owner = await createTestUser(server);
		const viewer = await createTestUser(server);
		const onBoard = await seedGeneration(server, {
			userId: owner.userId,
			prompt: "shared lighthouse",
			createdAt: minutesAgo(2),
			imageCount: 1,
		});
		const board = await makeBoard(owner.client, { name: "Shared", visibility: "shared" });
		expect((await putOnBoard(owner.client, board.id, [onBoard.id])).status).toBe(200);
		const favourite = await owner.client.request(`/api/generations/${onBoard.id}/favorite`, {
			method: "PUT",
			json: { favorite: true },
		});
		expect(favourite.status).toBe(200);
		return { owner, viewer, onBoard, board };
	}

	/** The board and its generation as the owner sees them: nothing the viewer tried changed. */
	async function expectUnchanged(setUp: Awaited<ReturnType<typeof setUpSharedBoard>>) {
		const { owner, onBoard, board } = setUp;
		const boards = await owner.client.request("/api/boards");
		const listed = z
			.parse(BoardListSchema, await boards.json())
			.items.find((entry) => entry.id === board.id);
		expect(listed).toMatchObject({ name: "Shared", visibility: "shared", count: 1 });
		const page = await readBoardPage(owner.client, board.id);
		expect(page.items.map((item) => [item.id, item.is_favorite])).toEqual([[onBoard.id, true]]);
	}

	it("refuses the board's visibility, and its deletion with its generations, as read-only", async () => {
		const setUp = await setUpSharedBoard();
		const { viewer, board } = setUp;
		for (const visibility of ["private", "shared"]) {
			await expectErrorEnvelope(
				await viewer.client.request(`/api/boards/${board.id}`, {
					method: "PATCH",
					json: { visibility },
				}),
				403,
				"BOARD_READ_ONLY",
			);
		}
		await expectErrorEnvelope(
			await viewer.client.request(`/api/boards/${board.id}?withGenerations=true`, {
				method: "DELETE",
			}),
			403,
			"BOARD_READ_ONLY",
		);
		await expectUnchanged(setUp);
	});

	it("refuses the owner's generations to the viewer's favourite and every deletion", async () => {
		const setUp = await setUpSharedBoard();
		const { viewer, onBoard } = setUp;
		for (const [path, init] of [
			[`/api/generations/${onBoard.id}/favorite`, { method: "PUT", json: { favorite: false } }],
			[`/api/generations/${onBoard.id}?permanent=true`, { method: "DELETE" }],
			["/api/generations/bulk-delete", { method: "POST", json: { ids: [onBoard.id] } }],
			[
				"/api/generations/bulk-delete?permanent=true",
				{ method: "POST", json: { ids: [onBoard.id] } },
			],
		] as const) {
			await expectErrorEnvelope(await viewer.client.request(path, init), 404, "NOT_FOUND");
		}
		await expectUnchanged(setUp);
	});
});
