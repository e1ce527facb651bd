// Shared pieces of the benchmarks in this folder (not a benchmark itself; bench/run.mjs skips it).

import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { serve } from "@hono/node-server";
import pg from "pg";
import {
	type Database,
	openPgliteDatabase,
	openPostgresDatabase,
	PGLITE_EXTENSIONS,
	PGLITE_START_PARAMS,
} from "../src/server/db/database";
import { loadStaticSite, type StaticSite } from "../src/server/http/static-site";
import { createSilentLogger } from "../src/server/logging/logger";
import type { ModelCatalogue } from "../src/server/models/model-catalogue";
import type { ImageProvider } from "../src/server/providers/types";
import { assembleServer } from "../src/server/server";
import { createLocalStorage } from "../src/server/storage/local-storage";
import { findFreePort, startPostgresCluster } from "../src/server/testing/postgres-cluster";
import { readResetToken } from "../src/server/testing/reset-token";
import {
	createTestSettings,
	TEST_ADMIN_EMAIL,
	TEST_BASE_URL,
	type TestSettingsOverrides,
} from "../src/server/testing/test-settings";

// The benchmarks run the server with the same settings the tests use.
export const BENCH_BASE_URL = TEST_BASE_URL;
const BENCH_ADMIN_EMAIL = TEST_ADMIN_EMAIL;
/** The tests' settings, for a benchmark that assembles the server itself. */
export const createBenchSettings = createTestSettings;
const BENCH_PASSWORD = "correct horse battery";

export type DatabaseKind = "pglite" | "postgres";

/** Each database's short name, as the benchmarks' own messages say it. */
export const DATABASE_NAMES: Record<DatabaseKind, string> = {
	pglite: "PGlite",
	postgres: "PostgreSQL",
};

/** A fresh in-memory PGlite database, with the settings the server gives its embedded database. */
export async function openBenchPglite(): Promise<Database> {
	const pglite = await PGlite.create({
		extensions: PGLITE_EXTENSIONS,
		startParams: [...PGLITE_START_PARAMS],
	});
	return openPgliteDatabase(pglite, { ownsPglite: true });
}

type PostgresTarget = {
	/** Where the server came from, for the printout. */
	source: string;
	/** Opens a fresh, empty database on the server; closing it drops it. */
	openDatabase(): Promise<Database>;
	/** Creates a fresh, empty database on the server for another process to use; `drop` removes it. */
	createDatabase(): Promise<{ url: string; drop(): Promise<void> }>;
	stop(): Promise<void>;
};

/**
 * A PostgreSQL server: BENCH_DATABASE_URL when set, else a throwaway cluster on 127.0.0.1. Each
 * benchmark gets its own new database on it, dropped afterwards. Undefined (said loudly) if neither.
 */
export async function startBenchPostgres(): Promise<PostgresTarget | undefined> {
	let serverUrl = process.env.BENCH_DATABASE_URL || undefined;
	let source = "BENCH_DATABASE_URL";
	let stopCluster = async () => {};
	if (!serverUrl) {
		const cluster = await startPostgresCluster();
		if ("unavailable" in cluster) {
			const banner = "!".repeat(78);
			console.log(
				`\n${banner}\n!! PostgreSQL benchmark SKIPPED: ${cluster.unavailable}.\n!! Set BENCH_DATABASE_URL or install the PostgreSQL server binaries to run it.\n${banner}\n`,
			);
			return undefined;
		}
		serverUrl = cluster.url;
		source = "throwaway cluster on 127.0.0.1 (fsync off)";
		stopCluster = () => cluster.stop();
	}
	const adminUrl = serverUrl;
	const admin = async (statement: string) => {
		const client = new pg.Client({ connectionString: adminUrl });
		await client.connect();
		try {
			await client.query(statement);
		} finally {
			await client.end();
		}
	};
	const version = await (async () => {
		const client = new pg.Client({ connectionString: adminUrl });
		await client.connect();
		try {
			const result = await client.query<{ server_version: string }>("show server_version");
			return result.rows[0]?.server_version ?? "?";
		} finally {
			await client.end();
		}
	})();
	const createDatabase = async () => {
		const name = `atelier_bench_${randomUUID().replaceAll("-", "")}`;
		await admin(`CREATE DATABASE ${name}`);
		const url = new URL(adminUrl);
		url.pathname = `/${name}`;
		return {
			url: url.toString(),
			async drop() {
				await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
			},
		};
	};
	return {
		source: `PostgreSQL ${version}, ${source}`,
		createDatabase,
		async openDatabase() {
			const created = await createDatabase();
			const database = openPostgresDatabase(created.url, createSilentLogger());
			return {
				...database,
				async close() {
					await database.close();
					await created.drop();
				},
			};
		},
		stop: stopCluster,
	};
}

/** One database a benchmark measures on, as forEachBenchDatabase hands it over. */
export type BenchDatabase = {
	kind: DatabaseKind;
	/** Its row's name in the printout. */
	label: string;
	/** Where it came from: PostgreSQL's version and cluster, else the label. */
	source: string;
	/** Opens a fresh, empty database of it (as often as the benchmark needs). */
	open(): Promise<Database>;
};

/**
 * Runs `measure` on each database a benchmark compares, one after the other: an in-memory PGlite,
 * then PostgreSQL (BENCH_DATABASE_URL, else a throwaway cluster; skipped, said loudly, without
 * either), stopped afterwards. `kinds` (a benchmark's DATABASES) leaves either out; `labels`
 * names their rows ("PGlite (in-memory)" and "PostgreSQL" unless given). Answers the kinds it
 * measured on.
 */
export async function forEachBenchDatabase(
	measure: (database: BenchDatabase) => Promise<void>,
	options: { kinds?: readonly string[]; labels?: Partial<Record<DatabaseKind, string>> } = {},
): Promise<DatabaseKind[]> {
	const { kinds = ["pglite", "postgres"], labels = {} } = options;
	const measured: DatabaseKind[] = [];
	if (kinds.includes("pglite")) {
		const label = labels.pglite ?? "PGlite (in-memory)";
		await measure({ kind: "pglite", label, source: label, open: openBenchPglite });
		measured.push("pglite");
	}
	if (!kinds.includes("postgres")) return measured;
	const postgres = await startBenchPostgres();
	if (!postgres) return measured;
	try {
		await measure({
			kind: "postgres",
			label: labels.postgres ?? "PostgreSQL",
			source: postgres.source,
			open: () => postgres.openDatabase(),
		});
		measured.push("postgres");
	} finally {
		await postgres.stop();
	}
	return measured;
}

export type BenchServer = Awaited<ReturnType<typeof assembleServer>> & {
	database: Database;
	close(): Promise<void>;
};

/** The real server on `database`, images in a temporary folder, logs dropped. */
export async function createBenchServer(options: {
	database: Database;
	/** The one model's provider, or the models offered. */
	provider: ImageProvider | ModelCatalogue;
	/** What differs from the tests' settings (createTestSettings), which the benchmarks share. */
	settings?: TestSettingsOverrides;
	isWorkerEnabled: boolean;
	/** The built web app it serves, if any. */
	site?: StaticSite;
}): Promise<BenchServer> {
	const storageDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-images-"));
	const server = await assembleServer({
		database: options.database,
		logger: createSilentLogger(),
		settings: createTestSettings(options.settings),
		storage: createLocalStorage(storageDir),
		models: options.provider,
		site: options.site,
		isWorkerEnabled: options.isWorkerEnabled,
	});
	return {
		...server,
		database: options.database,
		async close() {
			await server.stop();
			await options.database.close();
			await rm(storageDir, { recursive: true, force: true });
		},
	};
}

export type ServedBenchServer = BenchServer & { baseUrl: string };

/**
 * The real server on a fresh in-memory PGlite, over HTTP on a free port of 127.0.0.1 (its
 * headers, compression and API as deployed), with the web app built in `webDist` if given.
 * `trustedOrigins` adds origins beside its own (signUp sends BENCH_BASE_URL's). close() stops
 * listening, then closes the server as createBenchServer's does.
 */
export async function serveBenchServer(options: {
	provider: ImageProvider | ModelCatalogue;
	isWorkerEnabled: boolean;
	webDist?: string;
	trustedOrigins?: string[];
}): Promise<ServedBenchServer> {
	const database = await openBenchPglite();
	const port = await findFreePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const server = await createBenchServer({
		database,
		provider: options.provider,
		settings: { baseUrl, trustedOrigins: options.trustedOrigins ?? [] },
		isWorkerEnabled: options.isWorkerEnabled,
		site: options.webDist === undefined ? undefined : await loadStaticSite(options.webDist),
	});
	const http = serve({ fetch: server.app.fetch, port, hostname: "127.0.0.1" });
	return {
		...server,
		baseUrl,
		async close() {
			http.close();
			await server.close();
		},
	};
}

/** A signed-in person: the session cookie, and the headers of a JSON request of theirs. */
export type BenchPerson = {
	userId: string;
	cookie: string;
	headers: { cookie: string; origin: string; "content-type": string };
};

function benchPerson(userId: string, cookie: string): BenchPerson {
	return {
		userId,
		cookie,
		headers: { cookie, origin: BENCH_BASE_URL, "content-type": "application/json" },
	};
}

/** Signs up through the real endpoint; returns the user's id and the session to send. */
export async function signUp(
	server: Pick<BenchServer, "app">,
	email: string,
): Promise<BenchPerson> {
	const response = await server.app.request("/api/auth/sign-up/email", {
		method: "POST",
		headers: { "content-type": "application/json", origin: BENCH_BASE_URL },
		body: JSON.stringify({ email, password: BENCH_PASSWORD, name: email.split("@")[0] }),
	});
	if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
	const body = (await response.json()) as { user: { id: string } };
	return benchPerson(body.user.id, readSessionCookie(response));
}

/**
 * The administrator as an operator makes them (decision 022): signs up with BENCH_ADMIN_EMAIL,
 * then claims the address through the reset link the server made on sign-up. Signing up alone
 * gives no powers. Returns the user's id and the cookie of the session the claim signs in.
 */
export async function signUpAdministrator(
	server: Pick<BenchServer, "app" | "database">,
): Promise<BenchPerson> {
	const { userId } = await signUp(server, BENCH_ADMIN_EMAIL);
	const token = await readResetToken(server, userId);
	const response = await server.app.request("/api/auth/reset-password", {
		method: "POST",
		headers: { "content-type": "application/json", origin: BENCH_BASE_URL },
		body: JSON.stringify({ token, newPassword: BENCH_PASSWORD }),
	});
	if (!response.ok) throw new Error(`claim failed: ${response.status} ${await response.text()}`);
	return benchPerson(userId, readSessionCookie(response));
}

function readSessionCookie(response: Response): string {
	const cookie = response.headers
		.getSetCookie()
		.map((header) => header.split(";")[0] ?? "")
		.filter((pair) => pair.includes("="))
		.join("; ");
	if (!cookie) throw new Error(`${response.url || "the answer"} set no session cookie`);
	return cookie;
}

/** The machine's load average over 1, 5 and 15 minutes, as "2.1 / 3.4 / 5.0". */
export function formatLoadAverage(): string {
	return loadavg()
		.map((load) => load.toFixed(1))
		.join(" / ");
}

/** "2 cores, load average 2.1 / 3.4 / 5.0 (1 / 5 / 15 min)": what every printout says of the machine. */
export function describeMachine(): string {
	return `${cpus().length} cores, load average ${formatLoadAverage()} (1 / 5 / 15 min)`;
}

export type Summary = { median: number; p95: number; max: number; mean: number; count: number };

export function percentile(sorted: readonly number[], share: number): number {
	const index = Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1);
	return sorted[Math.max(0, index)] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): Summary {
	const sorted = [...samples].sort((a, b) => a - b);
	const total = sorted.reduce((sum, value) => sum + value, 0);
	return {
		median: percentile(sorted, 0.5),
		p95: percentile(sorted, 0.95),
		max: sorted.at(-1) ?? Number.NaN,
		mean: sorted.length > 0 ? total / sorted.length : Number.NaN,
		count: sorted.length,
	};
}

export function formatMs(value: number): string {
	return `${value.toFixed(2)} ms`;
}

/** Prints rows as an aligned text table; the first `leftColumns` columns are text, the rest numbers. */
export function printTable(
	header: readonly string[],
	rows: readonly (readonly string[])[],
	leftColumns = 1,
): void {
	const widths = header.map((title, column) =>
		Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
	);
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, column) => {
				const width = widths[column] ?? 0;
				return column < leftColumns ? cell.padEnd(width) : cell.padStart(width);
			})
			.join("  ");
	console.log(line(header));
	console.log(widths.map((width) => "-".repeat(width)).join("  "));
	for (const row of rows) console.log(line(row));
}

/** Debian's Chromium (Playwright cannot download its own browser here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The flags of playwright.config.ts: without the background-networking ones, Chromium's own
 * connections are refused by this machine's closed network, many at a time.
 */
export const CHROMIUM_ARGS = [
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
];
