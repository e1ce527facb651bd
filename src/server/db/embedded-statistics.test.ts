import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { refreshStatistics } from "./embedded-statistics";

async function analyzedRows(server: TestServer): Promise<number> {
	const { rows } = await sql<{ reltuples: number }>`
		select reltuples from pg_class where oid = 'generation_search'::regclass`.execute(
		server.database.db,
	);
	return Number(rows[0]?.reltuples);
}

async function seedRows(server: TestServer, userId: string, count: number): Promise<void> {
	await sql`
		insert into generations (id, user_id, prompt, aspect_ratio, status, provider, model_id, model_label, created_at, updated_at)
		select gen_random_uuid(), ${userId}, 'a lighthouse ' || g, '--ar 1:1', 'completed', 'local', 'local', 'Offline engine', now(), now()
		from generate_series(1, ${count}::int) as g`.execute(server.database.db);
}

describe("the embedded database's statistics", () => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer("pglite", { isWorkerEnabled: false });
	});
	afterAll(async () => {
		await server.close();
	});

	it("are taken again once the history has changed by more than 50 rows and 10%", async () => {
		const { userId } = await createTestUser(server);
		await refreshStatistics(server.database);
		const before = await analyzedRows(server);

		await seedRows(server, userId, 40);
		expect(await refreshStatistics(server.database)).toBe(false);
		await seedRows(server, userId, 200);
		expect(await refreshStatistics(server.database)).toBe(true);
		expect(await analyzedRows(server)).toBe(before + 240);
		expect(await refreshStatistics(server.database)).toBe(false);
	});
});
