import { execFile } from "node:child_process";
import { access, mkdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import v8 from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Logger } from "../logging/logger";
import { createPglitePool } from "./pglite-connection";
import type { DatabaseSchema } from "./schema";

type NotificationHandler = (payload: string) => void;

/**
 * One database, embedded or server: a `pg.Pool` for every query (ours, Better Auth's, pg-boss's),
 * Kysely over it, and LISTEN for job changes.
 */
export type Database = {
	readonly kind: "pglite" | "postgres";
	readonly pool: pg.Pool;
	readonly db: Kysely<DatabaseSchema>;
	listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
	/**
	 * The embedded database's data folder as an uncompressed tarball, taken between two statements
	 * (docs/decisions/017-backups.md). Only PGlite has one; a PostgreSQL server is backed up with
	 * its own tools.
	 */
	dumpDataDir?(): Promise<Blob>;
	close(): Promise<void>;
};

function createKysely(pool: pg.Pool): Kysely<DatabaseSchema> {
	return new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
}

/** The extensions every PGlite instance of ours loads: pg_trgm serves the history search. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * Wraps a PGlite instance. PGlite is a single session, so the pool holds exactly one connection:
 * a transaction then owns the session until it ends and nothing interleaves with it. LISTEN goes
 * through that pool too (PGlite's own `listen` runs its statement beside the pool's, in the same
 * session), and PGlite hands the notifications that come back with any answer to its listeners.
 */
export function openPgliteDatabase(pglite: PGlite, options: { ownsPglite: boolean }): Database {
	const pool = createPglitePool(pglite);
	const db = createKysely(pool);
	const listeners = new Map<string, Set<NotificationHandler>>();
	const stopNotifications = pglite.onNotification((channel, payload) => {
		for (const handler of listeners.get(channel) ?? []) handler(payload);
	});
	return {
		kind: "pglite",
		pool,
		db,
		async listen(channel, handler) {
			// Registered once LISTEN has succeeded, so a failed one is tried again by the next call.
			// Two first calls at once both send LISTEN, which PostgreSQL takes as one.
			if (!listeners.has(channel)) await sql`listen ${sql.id(channel)}`.execute(db);
			const handlers = listeners.get(channel) ?? new Set<NotificationHandler>();
			listeners.set(channel, handlers);
			handlers.add(handler);
			return async () => {
				handlers.delete(handler);
				if (handlers.size > 0 || listeners.get(channel) !== handlers) return;
				listeners.delete(channel);
				await sql`unlisten ${sql.id(channel)}`.execute(db);
			};
		},
		dumpDataDir: () => pglite.dumpDataDir("none"),
		async close() {
			stopNotifications();
			await db.destroy();
			if (options.ownsPglite) await pglite.close();
		},
	};
}

/**
 * PostgreSQL settings for the embedded database. PGlite keeps PostgreSQL's shared memory inside its
 * WebAssembly heap, in this process: the default 128 MB of shared buffers cost an idle server
 * 100 to 130 MB. The data files sit in the operating system's page cache anyway, so a small buffer
 * pool costs a copy per page read, not a disk read (docs/decisions/010-embedded-memory.md).
 */
export const PGLITE_START_PARAMS: readonly string[] = [
	...PGlite.defaultStartParams,
	"-c",
	"shared_buffers=16MB",
];

const execFileAsync = promisify(execFile);

/**
 * Creates a new embedded database in `directory` in a short-lived child process. PGlite's initdb
 * runs temporary instances that take some 700 MB for a few seconds; in this process 100 to 200 MB
 * of that stayed allocated afterwards (docs/decisions/010-embedded-memory.md). The database is
 * made beside `directory` and renamed into place when complete, so a first start killed half-way
 * leaves nothing that looks like a database.
 */
async function createEmbeddedDatabase(directory: string): Promise<void> {
	const creating = `${directory}.creating`;
	// The leftover of a first start that was killed; the data-folder lock keeps out anyone else.
	await rm(creating, { recursive: true, force: true });
	await mkdir(path.dirname(directory), { recursive: true });
	const pgliteEntry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
	const script =
		"const [entry, directory, startParams] = process.argv.slice(1);" +
		"require(entry).PGlite.create(directory, { startParams: JSON.parse(startParams) })" +
		".then((db) => db.close()).catch((error) => { console.error(error); process.exitCode = 1; });";
	try {
		await execFileAsync(
			process.execPath,
			["-e", script, pgliteEntry, creating, JSON.stringify(PGLITE_START_PARAMS)],
			{ maxBuffer: 16 * 1024 * 1024 },
		);
		await rename(creating, directory);
	} catch (error) {
		await rm(creating, { recursive: true, force: true });
		const stderr = (error as { stderr?: unknown }).stderr;
		const detail = typeof stderr === "string" && stderr.trim() ? `: ${stderr.trim()}` : "";
		throw new Error(`Could not create the embedded database in ${directory}${detail}`, {
			cause: error,
		});
	}
}

/**
 * Which of V8's WebAssembly compilers compile the embedded database's PostgreSQL. V8 compiles
 * every function with its baseline compiler (Liftoff) and recompiles the hot ones with its
 * optimizing compiler (TurboFan); in this process that cost 60 to 90 MB more of an idle server's
 * memory, most of it the optimizing compiler's, for 4 % less CPU a statement
 * (docs/decisions/042-a-crowd-in-400-mb.md). The flag holds for modules compiled after it is set,
 * in the whole process: PGlite's, and undici's HTTP parser where it is compiled later.
 */
function chooseWasmCompilers(isOptimized: boolean) {
	v8.setFlagsFromString(isOptimized ? "--no-liftoff-only" : "--liftoff-only");
}

/**
 * Opens (creating if needed) the embedded database in `directory`, compiled by the baseline
 * compiler alone unless `isOptimized` (EMBEDDED_DATABASE_OPTIMIZE).
 */
export async function openEmbeddedDatabase(
	directory: string,
	options: { isOptimized?: boolean } = {},
): Promise<Database> {
	chooseWasmCompilers(options.isOptimized ?? false);
	const isCreated = await access(path.join(directory, "PG_VERSION")).then(
		() => true,
		() => false,
	);
	if (!isCreated) await createEmbeddedDatabase(directory);
	const pglite = await PGlite.create(directory, {
		extensions: PGLITE_EXTENSIONS,
		startParams: [...PGLITE_START_PARAMS],
	});
	return openPgliteDatabase(pglite, { ownsPglite: true });
}

/** Connections a server process keeps to PostgreSQL unless DATABASE_POOL_MAX says otherwise. */
export const DEFAULT_POOL_MAX = 20;

type PostgresPoolOptions = {
	/** Most connections open at once (`DATABASE_POOL_MAX`). */
	max?: number;
	/** How long a query waits for a free connection before failing (answered 503). */
	connectionTimeoutMs?: number;
};

/** Connects to a PostgreSQL server. LISTEN uses a dedicated client that reconnects on its own. */
export function openPostgresDatabase(
	connectionString: string,
	logger: Logger,
	options: PostgresPoolOptions = {},
): Database {
	const pool = new pg.Pool({
		connectionString,
		max: options.max ?? DEFAULT_POOL_MAX,
		connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
		idleTimeoutMillis: 30_000,
	});
	// An idle client that loses its server must not crash the process; the next query reconnects.
	pool.on("error", (error) => logger.warn("database connection lost", { error }));
	// A connection that drops while checked out also emits "error" on its client; the query fails
	// on its own, and without a listener the event would crash the process.
	pool.on("connect", (client) => {
		client.on("error", (error) =>
			logger.warn("database connection lost during a query", { error }),
		);
	});
	const db = createKysely(pool);
	const handlers = new Map<string, Set<NotificationHandler>>();
	let listener: pg.Client | undefined;
	let connecting: Promise<pg.Client> | undefined;
	let closed = false;

	const connectListener = async (): Promise<pg.Client> => {
		const client = new pg.Client({ connectionString });
		client.on("notification", (message) => {
			for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? "");
		});
		client.on("error", (error) => {
			logger.warn("notification connection lost; reconnecting", { error });
			if (listener === client) listener = undefined;
			client.end().catch(() => {});
			scheduleReconnect();
		});
		await client.connect();
		for (const channel of handlers.keys()) {
			await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
		}
		listener = client;
		return client;
	};

	const ensureListener = () => {
		if (listener) return Promise.resolve(listener);
		connecting ??= connectListener().finally(() => {
			connecting = undefined;
		});
		return connecting;
	};

	const scheduleReconnect = () => {
		if (closed || handlers.size === 0) return;
		setTimeout(() => {
			ensureListener().catch(() => scheduleReconnect());
		}, 1_000).unref();
	};

	return {
		kind: "postgres",
		pool,
		db,
		async listen(channel, handler) {
			const isNewChannel = !handlers.has(channel);
			const channelHandlers = handlers.get(channel) ?? new Set();
			channelHandlers.add(handler);
			handlers.set(channel, channelHandlers);
			const client = await ensureListener();
			if (isNewChannel) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
			return async () => {
				channelHandlers.delete(handler);
				if (channelHandlers.size === 0) {
					handlers.delete(channel);
					await listener?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
				}
			};
		},
		async close() {
			closed = true;
			handlers.clear();
			await listener?.end().catch(() => {});
			await db.destroy();
		},
	};
}

/** True for errors that mean the database cannot be reached, as opposed to a bad query. */
export function isDatabaseUnavailableError(error: unknown, depth = 0): boolean {
	if (!(error instanceof Error) || depth > 5) return false;
	// Libraries (Better Auth, Kysely) wrap the driver's error; look through the wrapping.
	if (error.cause !== undefined && isDatabaseUnavailableError(error.cause, depth + 1)) return true;
	if (
		error instanceof AggregateError &&
		error.errors.some((inner) => isDatabaseUnavailableError(inner, depth + 1))
	) {
		return true;
	}
	const code = (error as { code?: unknown }).code;
	if (typeof code === "string") {
		// Connection exceptions (08xxx), shutdown (57P0x), too many connections (53300).
		if (code.startsWith("08") || code.startsWith("57P0") || code === "53300") return true;
		if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND"].includes(code))
			return true;
	}
	return /Connection terminated|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end|timeout exceeded when trying to connect/i.test(
		error.message,
	);
}
