import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPgliteDatabase, openPostgresDatabase, PGLITE_EXTENSIONS } from "../db/database";
import { createSilentLogger } from "../logging/logger";
import { createLocalProvider } from "../providers/local/local-provider";
import { assembleServer } from "../server";
import { createLocalStorage } from "../storage/local-storage";
import { startPostgresCluster } from "./postgres-cluster";
import { buildServerBundle } from "./server-process";
import { createTestSettings } from "./test-settings";

declare module "vitest" {
	export interface ProvidedContext {
		/** A migrated PGlite data folder, dumped once; each test file loads its own copy. */
		pgliteTemplatePath: string;
		/** A PostgreSQL server with a migrated `atelier_template` database, or null when none. */
		postgresUrl: string | null;
		/** The server bundled once for the run (buildServerBundle), for tests that spawn it. */
		serverEntry: string;
	}
}

const POSTGRES_TEMPLATE_DATABASE = "atelier_template";

async function migrate(database: Parameters<typeof assembleServer>[0]["database"]) {
	const server = await assembleServer({
		database,
		logger: createSilentLogger(),
		settings: createTestSettings(),
		storage: createLocalStorage(tmpdir()),
		models: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
	});
	await server.stop();
}

async function preparePgliteTemplate(directory: string): Promise<string> {
	const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
	const database = openPgliteDatabase(pglite, { ownsPglite: false });
	await migrate(database);
	await database.close();
	const dump = await pglite.dumpDataDir("none");
	await pglite.close();
	const templatePath = path.join(directory, "pglite-template.tar");
	await writeFile(templatePath, Buffer.from(await dump.arrayBuffer()));
	return templatePath;
}

async function preparePostgresTemplate(url: string) {
	const admin = new pg.Client({ connectionString: url });
	await admin.connect();
	await admin.query(`DROP DATABASE IF EXISTS ${POSTGRES_TEMPLATE_DATABASE}`);
	await admin.query(`CREATE DATABASE ${POSTGRES_TEMPLATE_DATABASE}`);
	await admin.end();
	const templateUrl = new URL(url);
	templateUrl.pathname = `/${POSTGRES_TEMPLATE_DATABASE}`;
	const database = openPostgresDatabase(templateUrl.toString(), createSilentLogger(), { max: 2 });
	await migrate(database);
	await database.close();
}

export async function setup(project: TestProject) {
	const directory = await mkdtemp(path.join(tmpdir(), "atelier-test-"));
	const cleanups: Array<() => Promise<void>> = [
		() => rm(directory, { recursive: true, force: true }),
	];

	// One bundle for every file that spawns a server, built while the templates migrate; a rerun
	// in watch mode builds it again from the changed sources.
	const bundling = buildServerBundle();
	project.provide("pgliteTemplatePath", await preparePgliteTemplate(directory));

	let postgresUrl = process.env.TEST_DATABASE_URL || null;
	if (!postgresUrl) {
		const cluster = await startPostgresCluster();
		if ("unavailable" in cluster) {
			const banner = "!".repeat(78);
			process.stderr.write(
				`\n${banner}\n!! PostgreSQL tests are SKIPPED: ${cluster.unavailable}.\n!! Set TEST_DATABASE_URL or install the PostgreSQL server binaries to run them.\n${banner}\n\n`,
			);
		} else {
			postgresUrl = cluster.url;
			cleanups.push(() => cluster.stop());
		}
	}
	if (postgresUrl) await preparePostgresTemplate(postgresUrl);
	project.provide("postgresUrl", postgresUrl);

	const bundle = await bundling;
	cleanups.push(() => bundle.remove());
	project.provide("serverEntry", bundle.entry);
	project.onTestsRerun(() => bundle.rebuild());

	return async () => {
		for (const cleanup of cleanups.reverse()) await cleanup();
	};
}
