// The completed row the tests build and the benchmarks' seed inserts is one the history lists: a
// column it lacks, and a history that hid its rows, would show here before in a benchmark run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationPage } from "../../shared/generations/generation-responses";
import { insertCompletedRowsSql } from "./generation-row";
import { availableDatabaseKinds } from "./test-database";
import { createTestServer, createTestUser, type TestServer } from "./test-server";

describe.each(availableDatabaseKinds())("completed rows inserted together (%s)", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});

	afterAll(async () => {
		await server?.close();
	});

	it("are listed by the history, page after page", async () => {
		const person = await createTestUser(server);
		await server.database.pool.query(
			insertCompletedRowsSql("generate_series(1, 30) as g", {
				id: "gen_random_uuid()",
				user_id: "$1",
				prompt: "'seeded ' || g",
				created_at: "now() - g * interval '1 minute'",
			}),
			[person.userId],
		);

		const first = await person.client.request("/api/generations?limit=24");
		const firstPage = (await first.json()) as GenerationPage;
		expect(firstPage.items.map((item) => item.prompt).slice(0, 2)).toEqual([
			"seeded 1",
			"seeded 2",
		]);
		expect(firstPage).toMatchObject({ total: 30, items: expect.any(Array) });
		expect(firstPage.items).toHaveLength(24);
		expect(firstPage.nextCursor).not.toBeNull();

		const second = await person.client.request(
			`/api/generations?limit=24&cursor=${firstPage.nextCursor}`,
		);
		const secondPage = (await second.json()) as GenerationPage;
		expect(secondPage.items.map((item) => item.prompt)).toEqual(
			Array.from({ length: 6 }, (_, index) => `seeded ${25 + index}`),
		);
		expect(secondPage.nextCursor).toBeNull();
	});
});
