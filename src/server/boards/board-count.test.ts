import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { BoardListSchema } from "../../shared/history/boards";
import { makeBoard, putOnBoard, readBoardPage } from "../testing/board-kit";
import { minutesAgo, seedGeneration } from "../testing/history-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../testing/test-server";

// A board keeps its count on its row (migration 0040): its page and the boards list read it
// instead of counting its memberships. These follow it through everything that changes it.

type Person = Awaited<ReturnType<typeof createTestUser>>;

async function listBoards(client: TestClient) {
	const response = await client.request("/api/boards");
	expect(response.status).toBe(200);
	return z.parse(BoardListSchema, await response.json()).items;
}

describe.each(availableDatabaseKinds())("a board's kept count on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
	});
	afterAll(async () => {
		await server.close();
	});

	const seed = (person: Person, prompt: string, minutes: number, isFavorite = false) =>
		seedGeneration(server, {
			userId: person.userId,
			prompt,
			imageCount: 1,
			createdAt: minutesAgo(minutes),
			isFavorite,
		});

	/** Each board's count as the list, its page and its row say it, and as its memberships are. */
	async function countsOf(person: Person, boardIds: readonly string[]) {
		const listed = await listBoards(person.client);
		const counts: Record<string, unknown> = {};
		for (const id of boardIds) {
			const page = await readBoardPage(person.client, id);
			const { rows } = await sql<{ kept: number; counted: string }>`
				select generation_count as kept,
					(select count(*) from board_generations as member
						join generations on generations.id = member.generation_id
						where member.board_id = boards.id and generations.deleted_at is null) as counted
				from boards where id = ${id}`.execute(server.database.db);
			counts[id] = {
				listed: listed.find((board) => board.id === id)?.count,
				page: page.total,
				kept: rows[0]?.kept,
				counted: Number(rows[0]?.counted),
			};
		}
		return counts;
	}
	const same = (count: number) => ({ listed: count, page: count, kept: count, counted: count });

	it("keeps the count right through add, remove, the Trash, restore, Delete forever and a new generation", async () => {
		const person = await createTestUser(server);
		const [first, second, third, fourth] = [
			await seed(person, "first", 40),
			await seed(person, "second", 30),
			await seed(person, "third", 20),
			await seed(person, "fourth", 10),
		];
		if (!first || !second || !third || !fourth) throw new Error("not seeded");
		const sea = await makeBoard(person.client, { name: "Sea" });
		const coast = await makeBoard(person.client, { name: "Coast" });
		const ids = [sea.id, coast.id];

		await putOnBoard(person.client, sea.id, [first.id, second.id, third.id, fourth.id]);
		await putOnBoard(person.client, coast.id, [first.id]);
		// Again: what is on it already is not counted twice.
		await putOnBoard(person.client, sea.id, [first.id, second.id]);
		expect(await countsOf(person, ids)).toEqual({ [sea.id]: same(4), [coast.id]: same(1) });

		const removed = await person.client.request(`/api/boards/${sea.id}/generations/remove`, {
			method: "POST",
			json: { ids: [second.id, second.id] },
		});
		expect(removed.status).toBe(200);
		expect(await countsOf(person, ids)).toEqual({ [sea.id]: same(3), [coast.id]: same(1) });

		// To the Trash: off both boards' counts; restored: back on them.
		expect(
			(await person.client.request(`/api/generations/${first.id}`, { method: "DELETE" })).status,
		).toBe(200);
		expect(await countsOf(person, ids)).toEqual({ [sea.id]: same(2), [coast.id]: same(0) });
		const restored = await person.client.request("/api/trash/restore", {
			method: "POST",
			json: { ids: [first.id] },
		});
		expect(restored.status).toBe(200);
		expect(await countsOf(person, ids)).toEqual({ [sea.id]: same(3), [coast.id]: same(1) });

		// Taken off a board while in the Trash, and purged from it: counted off once, when it went.
		await person.client.request(`/api/generations/${third.id}`, { method: "DELETE" });
		await person.client.request(`/api/generations/${fourth.id}`, { method: "DELETE" });
		await person.client.request(`/api/boards/${sea.id}/generations/remove`, {
			method: "POST",
			json: { ids: [fourth.id] },
		});
		expect(await countsOf(person, ids)).toEqual({ [sea.id]: same(1), [coast.id]: same(1) });
		expect((await person.client.request("/api/trash/empty", { method: "POST" })).status).toBe(200);
		expect(await countsOf(person, ids)).toEqual({ [sea.id]: same(1), [coast.id]: same(1) });

		// Deleted for good from the history, never in the Trash: off both.
		const permanent = await person.client.request(`/api/generations/${first.id}?permanent=true`, {
			method: "DELETE",
		});
		expect(permanent.status).toBe(200);
		expect(await countsOf(person, ids)).toEqual({ [sea.id]: same(0), [coast.id]: same(0) });

		// A new generation started onto a board.
		const started = await person.client.request("/api/generations", {
			method: "POST",
			json: { prompt: "A harbour", aspectRatio: "--ar 1:1", count: 1, boards: [coast.id] },
		});
		expect(started.status).toBe(201);
		expect(await countsOf(person, ids)).toEqual({ [sea.id]: same(0), [coast.id]: same(1) });
	});

	it("counts a whole board's page from its row and today's from its newest memberships", async () => {
		const person = await createTestUser(server);
		const earlier = await seedGeneration(server, {
			userId: person.userId,
			prompt: "two days ago",
			createdAt: minutesAgo(2 * 24 * 60),
		});
		const now = await seed(person, "just now", 0);
		const trashed = await seed(person, "trashed just now", 0);
		const board = await makeBoard(person.client);
		await putOnBoard(person.client, board.id, [earlier.id, now.id, trashed.id]);
		await person.client.request(`/api/generations/${trashed.id}`, { method: "DELETE" });

		const page = await readBoardPage(person.client, board.id, { limit: "1" });
		expect({ total: page.total, today: page.today }).toEqual({ total: 2, today: 1 });
		// A later page counts the same, from the same row.
		const later = await readBoardPage(person.client, board.id, {
			limit: "1",
			cursor: page.nextCursor ?? "",
		});
		expect(later.items.map((item) => item.id)).toEqual([earlier.id]);
		expect({ total: later.total, today: later.today }).toEqual({ total: 2, today: 1 });
		// Narrowed by the page's own filters, the board's rows are counted as before.
		const searched = await readBoardPage(person.client, board.id, { q: "days" });
		expect({ total: searched.total, today: searched.today }).toEqual({ total: 1, today: 0 });
	});

	it("leaves other boards' counts alone when a board goes with its memberships", async () => {
		const person = await createTestUser(server);
		const shared = await seed(person, "on both", 5);
		const kept = await makeBoard(person.client, { name: "Kept" });
		const dropped = await makeBoard(person.client, { name: "Dropped" });
		await putOnBoard(person.client, kept.id, [shared.id]);
		await putOnBoard(person.client, dropped.id, [shared.id]);
		expect(
			(await person.client.request(`/api/boards/${dropped.id}`, { method: "DELETE" })).status,
		).toBe(200);
		expect(await countsOf(person, [kept.id])).toEqual({ [kept.id]: same(1) });
	});

	it("covers a smart board with its newest favourite that has an image, however far down", async () => {
		const person = await createTestUser(server);
		const favourite = await seed(person, "a lighthouse, starred", 600, true);
		const newest = await seed(person, "a lighthouse, newest with an image", 500);
		// Thirty newer matches without an image: queued, and failed ones.
		for (let index = 0; index < 30; index++) {
			await seedGeneration(server, {
				userId: person.userId,
				prompt: `a lighthouse ${index}`,
				createdAt: minutesAgo(100 - index),
				status: index % 2 === 0 ? "queued" : "failed",
				isFavorite: true,
			});
		}
		const smart = await makeBoard(person.client, { name: "Lights", query: { q: "lighthouse" } });
		const listed = (await listBoards(person.client)).find((board) => board.id === smart.id);
		expect(listed?.count).toBe(32);
		expect(listed?.coverUrl).toBe(`/api/images/${favourite.images[0]?.thumbnailKey}`);

		await person.client.request(`/api/generations/${favourite.id}`, { method: "DELETE" });
		const after = (await listBoards(person.client)).find((board) => board.id === smart.id);
		expect(after?.coverUrl).toBe(`/api/images/${newest.images[0]?.thumbnailKey}`);
	});
});
