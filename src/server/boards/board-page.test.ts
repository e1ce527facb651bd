import { randomUUID } from "node:crypto";
import { type CompiledQuery, Kysely, PostgresDialect, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseSchema } from "../db/schema";
import { selectHistoryPage } from "../generations/history-repository";
import { makeBoard, putOnBoard, readBoardPage } from "../testing/board-kit";
import { minutesAgo, seedGeneration } from "../testing/history-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";

// A board's page is read from its memberships in the history's order (decision 032), not by
// walking its owner's whole history and probing each row for a membership.

describe.each(availableDatabaseKinds())("a board's page on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
	});
	afterAll(async () => {
		await server.close();
	});

	it("lists a board newest made first, whatever order its generations were put on it", async () => {
		const person = await createTestUser(server);
		const oldest = await seedGeneration(server, {
			userId: person.userId,
			prompt: "oldest",
			createdAt: minutesAgo(30),
		});
		const middle = await seedGeneration(server, {
			userId: person.userId,
			prompt: "middle",
			createdAt: minutesAgo(20),
		});
		const newest = await seedGeneration(server, {
			userId: person.userId,
			prompt: "newest",
			createdAt: minutesAgo(10),
		});
		const board = await makeBoard(person.client, { name: "Out of order" });
		for (const id of [newest.id, oldest.id, middle.id]) {
			expect((await putOnBoard(person.client, board.id, [id])).status).toBe(200);
		}

		const first = await readBoardPage(person.client, board.id, { limit: "2" });
		expect(first.items.map((item) => item.prompt)).toEqual(["newest", "middle"]);
		expect(first.total).toBe(3);
		const second = await readBoardPage(person.client, board.id, {
			limit: "2",
			cursor: first.nextCursor ?? "",
		});
		expect(second.items.map((item) => item.prompt)).toEqual(["oldest"]);
		expect(second.nextCursor).toBeNull();
	});

	it("narrows a board's page to one batch, and a batch to what is on the board", async () => {
		const person = await createTestUser(server);
		const seed = (prompt: string) => seedGeneration(server, { userId: person.userId, prompt });
		const [red, blue, green, lone] = await Promise.all(
			["red car", "blue car", "green car", "lone car"].map(seed),
		);
		const batchId = randomUUID();
		await server.database.db
			.updateTable("generations")
			.set({ batch_id: batchId })
			.where("id", "in", [red?.id ?? "", blue?.id ?? "", green?.id ?? ""])
			.execute();
		const board = await makeBoard(person.client, { name: "Cars" });
		const onBoard = [red?.id ?? "", blue?.id ?? "", lone?.id ?? ""];
		expect((await putOnBoard(person.client, board.id, onBoard)).status).toBe(200);

		const page = await readBoardPage(person.client, board.id, { batch: batchId });
		expect(page.items.map((item) => item.prompt).sort()).toEqual(["blue car", "red car"]);
		expect(page.total).toBe(2);
		const whole = await readBoardPage(person.client, board.id);
		expect(whole.total).toBe(3);

		const smart = await makeBoard(person.client, {
			name: "Every car",
			query: { q: "car" },
		});
		const smartPage = await readBoardPage(person.client, smart.id, { batch: batchId });
		expect(smartPage.items.map((item) => item.prompt).sort()).toEqual([
			"blue car",
			"green car",
			"red car",
		]);
	});

	it("reads a board's page by the board's own index, not its owner's history", async () => {
		const person = await createTestUser(server);
		// A history of 2,000, every tenth on the board: walking the history for the board's rows
		// would read ten rows for each one shown, and all 2,000 for its count.
		await sql`
			insert into generations (id, user_id, prompt, aspect_ratio, status, provider, model_id, model_label, images, created_at, updated_at)
			select gen_random_uuid(), ${person.userId}, 'scene ' || g, '--ar 1:1', 'completed', 'local',
				'local', 'Offline engine', '[]'::jsonb, now() - g * interval '1 minute', now()
			from generate_series(1, 2000) as g`.execute(server.database.db);
		const board = await makeBoard(person.client, { name: "Every tenth" });
		const { rows } = await sql<{ id: string }>`
			select id from generations where user_id = ${person.userId}
			order by created_at desc, id desc`.execute(server.database.db);
		const onBoard = rows.filter((_, index) => index % 10 === 0).map((row) => row.id);
		for (let first = 0; first < onBoard.length; first += 100) {
			const ids = onBoard.slice(first, first + 100);
			expect((await putOnBoard(person.client, board.id, ids)).status).toBe(200);
		}
		await sql`analyze generations, generation_search, board_generations`.execute(
			server.database.db,
		);

		const page = await readBoardPage(person.client, board.id, { limit: "24" });
		expect(page.items.map((item) => item.id)).toEqual(onBoard.slice(0, 24));
		expect(page.total).toBe(200);

		// The same queries the route makes, captured as compiled, then explained.
		const queries: CompiledQuery[] = [];
		const logged = new Kysely<DatabaseSchema>({
			dialect: new PostgresDialect({ pool: server.database.pool }),
			log: (event) => {
				if (event.level === "query") queries.push(event.query);
			},
		});
		const filters = { userId: person.userId, boardId: board.id };
		await selectHistoryPage(logged, { filters, cursor: undefined, limit: 25, isOwnerShown: false });
		const [query] = queries;
		if (!query) throw new Error("The page made no query");
		const plan = await server.database.pool.query(`explain ${query.sql}`, [...query.parameters]);
		const text = plan.rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
		expect(text).toContain("board_generations_page");
		expect(text).not.toContain("generation_search_user_history");
		// Seeding a history of 2,000 on PGlite takes a while on a busy machine.
	}, 90_000);
});
