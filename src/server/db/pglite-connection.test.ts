import { PGlite } from "@electric-sql/pglite";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Database, openPgliteDatabase } from "./database";

describe("the embedded database's pool", () => {
	let pglite: PGlite;
	let database: Database;

	beforeEach(async () => {
		pglite = await PGlite.create();
		database = openPgliteDatabase(pglite, { ownsPglite: true });
		// A pool that loses its client reports it here; without a listener it would end the process.
		database.pool.on("error", (error) => {
			throw error;
		});
	});

	afterEach(async () => {
		await database.close();
	});

	it("answers the next queries after a pool.query fails (the pool then drops its client)", async () => {
		await expect(database.pool.query("select $1::int / 0", [1])).rejects.toThrow(
			/division by zero/,
		);
		expect((await database.pool.query("select $1::int + 1 as x", [1])).rows).toEqual([{ x: 2 }]);
		await expect(database.pool.query("analyze no_such_table")).rejects.toThrow(/does not exist/);
		expect((await database.pool.query("select $1::text as word", ["after"])).rows).toEqual([
			{ word: "after" },
		]);
	});

	it("answers a query waiting for the client while a pool.query fails", async () => {
		const failing = database.pool.query("select $1::int / 0", [1]);
		const waiting = database.pool.query("select $1::int + 1 as x", [1]);
		await expect(failing).rejects.toThrow(/division by zero/);
		expect((await waiting).rows).toEqual([{ x: 2 }]);
		expect((await database.pool.query("select $1::int as x", [3])).rows).toEqual([{ x: 3 }]);
	});

	it("keeps every answer with its own query when failures are mixed among many at once", async () => {
		const results = await Promise.all(
			Array.from({ length: 60 }, (_, index) =>
				index % 5 === 0
					? database.pool.query("select $1::int / 0", [index]).then(
							() => "answered",
							(error: Error) => error.message,
						)
					: database.pool.query("select $1::int as x", [index]).then((result) => result.rows[0].x),
			),
		);
		results.forEach((result, index) => {
			expect(result).toBe(index % 5 === 0 ? "division by zero" : index);
		});
	});

	it("rolls back a transaction whose client was dropped, as closing a connection does", async () => {
		const client = await database.pool.connect();
		await client.query("begin");
		await client.query("create table left_behind (id int)");
		client.release(new Error("dropped mid-transaction"));

		const tables = await database.pool.query(
			"select count(*)::int as count from pg_tables where tablename = $1",
			["left_behind"],
		);
		expect(tables.rows).toEqual([{ count: 0 }]);
		expect(pglite.isInTransaction()).toBe(false);
	});

	it("delivers notifications to listeners until they stop listening", async () => {
		const payloads: string[] = [];
		const unlisten = await database.listen("generation_changed", (payload) =>
			payloads.push(payload),
		);
		await sql`select pg_notify('generation_changed', 'first')`.execute(database.db);
		await sql`select pg_notify('other_channel', 'elsewhere')`.execute(database.db);
		await expect.poll(() => payloads).toEqual(["first"]);

		await unlisten();
		await sql`select pg_notify('generation_changed', 'second')`.execute(database.db);
		await sql`select 1`.execute(database.db);
		expect(payloads).toEqual(["first"]);
	});
});
