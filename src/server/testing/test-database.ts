import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import {
	type Database,
	openPgliteDatabase,
	openPostgresDatabase,
	PGLITE_EXTENSIONS,
} from "../db/database";
import { createSilentLogger } from "../logging/logger";

export type DatabaseKind = "pglite" | "postgres";

/** The database kinds this run can test; PostgreSQL is absent only when global setup said so loudly. */
export function availableDatabaseKinds(): DatabaseKind[] {
	return inject("postgresUrl") ? ["pglite", "postgres"] : ["pglite"];
}

let templateBlob: Blob | undefined;

/** A fresh, migrated database of the given kind, private to the caller. */
export async function createTestDatabase(
	kind: DatabaseKind,
): Promise<Database & { connectionString?: string }> {
	if (kind === "pglite") {
		templateBlob ??= new Blob([await readFile(inject("pgliteTemplatePath"))]);
		const pglite = await PGlite.create({
			loadDataDir: templateBlob,
			extensions: PGLITE_EXTENSIONS,
		});
		return openPgliteDatabase(pglite, { ownsPglite: true });
	}
	const serverUrl = inject("postgresUrl");
	if (!serverUrl) throw new Error("PostgreSQL is not available in this test run");
	const name = `atelier_test_${randomUUID().replaceAll("-", "")}`;
	const admin = new pg.Client({ connectionString: serverUrl });
	await admin.connect();
	try {
		await admin.query(`CREATE DATABASE ${name} TEMPLATE atelier_template`);
	} finally {
		await admin.end();
	}
	const url = new URL(serverUrl);
	url.pathname = `/${name}`;
	const database = openPostgresDatabase(url.toString(), createSilentLogger(), { max: 5 });
	return {
		...database,
		connectionString: url.toString(),
		async close() {
			await database.close();
			const cleanup = new pg.Client({ connectionString: serverUrl });
			await cleanup.connect();
			await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
			await cleanup.end();
		},
	};
}

/** A new, empty PostgreSQL database (no tables at all), as a first deployment meets it. */
export async function createEmptyPostgresDatabase(): Promise<{
	url: string;
	drop(): Promise<void>;
}> {
	const serverUrl = inject("postgresUrl");
	if (!serverUrl) throw new Error("PostgreSQL is not available in this test run");
	const name = `atelier_empty_${randomUUID().replaceAll("-", "")}`;
	const admin = new pg.Client({ connectionString: serverUrl });
	await admin.connect();
	try {
		await admin.query(`CREATE DATABASE ${name}`);
	} finally {
		await admin.end();
	}
	const url = new URL(serverUrl);
	url.pathname = `/${name}`;
	return {
		url: url.toString(),
		async drop() {
			const cleanup = new pg.Client({ connectionString: serverUrl });
			await cleanup.connect();
			await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
			await cleanup.end();
		},
	};
}
