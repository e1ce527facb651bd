import { access, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openEmbeddedDatabase } from "./database";

async function withTempFolder(test: (folder: string) => Promise<void>) {
	const folder = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
	try {
		await test(folder);
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

const exists = (target: string) =>
	access(target).then(
		() => true,
		() => false,
	);

describe("openEmbeddedDatabase", () => {
	it("creates the database in a new folder with a small buffer pool and pg_trgm, and reopens it with its data", async () => {
		await withTempFolder(async (folder) => {
			const directory = path.join(folder, "db");
			const first = await openEmbeddedDatabase(directory);
			try {
				const settings = await sql<{
					shared_buffers: string;
				}>`select current_setting('shared_buffers') as shared_buffers`.execute(first.db);
				// PostgreSQL's default of 128 MB would live in this process's memory
				// (docs/decisions/010-embedded-memory.md).
				expect(settings.rows[0]?.shared_buffers).toBe("16MB");
				// The history's search index needs pg_trgm, which the migrations create.
				await sql`create extension if not exists pg_trgm`.execute(first.db);
				const similar = await sql<{
					score: number;
				}>`select similarity('lighthouse', 'lighthouses') as score`.execute(first.db);
				expect(similar.rows[0]?.score).toBeGreaterThan(0.5);
				await sql`create table kept (note text)`.execute(first.db);
				await sql`insert into kept values ('still here')`.execute(first.db);
			} finally {
				await first.close();
			}
			expect(await exists(`${directory}.creating`)).toBe(false);

			const again = await openEmbeddedDatabase(directory);
			try {
				const rows = await sql<{ note: string }>`select note from kept`.execute(again.db);
				expect(rows.rows).toEqual([{ note: "still here" }]);
				const settings = await sql<{
					shared_buffers: string;
				}>`select current_setting('shared_buffers') as shared_buffers`.execute(again.db);
				expect(settings.rows[0]?.shared_buffers).toBe("16MB");
			} finally {
				await again.close();
			}
		});
	}, 180_000);

	it("creates the database after a first start that was killed while creating it", async () => {
		await withTempFolder(async (folder) => {
			const directory = path.join(folder, "db");
			// What a killed first start leaves: a half-made database beside the real folder's name.
			await mkdir(path.join(`${directory}.creating`, "base"), { recursive: true });
			await writeFile(path.join(`${directory}.creating`, "PG_VERSION"), "17\n");
			const database = await openEmbeddedDatabase(directory);
			try {
				const result = await sql<{ one: number }>`select 1 as one`.execute(database.db);
				expect(result.rows).toEqual([{ one: 1 }]);
			} finally {
				await database.close();
			}
			expect(await exists(`${directory}.creating`)).toBe(false);
		});
	}, 180_000);
});
