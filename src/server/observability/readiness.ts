import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { z } from "zod";
import type { Database } from "../db/database";
import type { Logger } from "../logging/logger";
import type { Storage } from "../storage/storage";

/** What can keep a process from taking traffic, as GET /api/ready names it. */
export const READINESS_PROBLEMS = ["database", "storage", "shutting-down"] as const;
export type ReadinessProblem = (typeof READINESS_PROBLEMS)[number];

/** The body of GET /api/ready: 200 with `{ ready: true, problems: [] }`, else 503 naming each. */
export const ReadinessSchema = z.object({
	ready: z.boolean(),
	problems: z.array(z.enum(READINESS_PROBLEMS)),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

/**
 * Where the storage probe writes. A folder of its own: the stray-object sweep lists only
 * `generations/`, so a probe object left by a crash is never taken for a generation's, and
 * nothing else reads this folder.
 */
export const READINESS_PROBE_FOLDER = "health/";

/** A check slower than this counts as failed: a load balancer waits only so long for the answer. */
const CHECK_TIMEOUT_MS = 3_000;

/**
 * How long a storage probe's answer stands: GET /api/ready needs no sign-in, so whatever the
 * request rate, storage takes at most one probe write (and its delete) per process in this time.
 */
export const STORAGE_PROBE_INTERVAL_MS = 5_000;

class CheckTimedOutError extends Error {}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() => reject(new CheckTimedOutError("the check timed out")),
			CHECK_TIMEOUT_MS,
		);
	});
	// The slow check goes on by itself; its late failure must not surface as unhandled.
	work.catch(() => {});
	return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function checkDatabase(database: Database): Promise<void> {
	await sql`select 1`.execute(database.db);
}

/** Writes and removes a small object of this probe's own, so a full or read-only store shows. */
async function checkStorage(storage: Storage): Promise<void> {
	const key = `${READINESS_PROBE_FOLDER}probe-${randomUUID()}.txt`;
	await storage.put(key, new TextEncoder().encode("ready\n"), "text/plain");
	await storage.delete([key]);
}

export type ReadinessCheck = {
	/**
	 * What GET /api/ready answers. Requests that come while a check runs share its answer; the
	 * database is asked each time, storage at most once every STORAGE_PROBE_INTERVAL_MS.
	 */
	check(): Promise<Readiness>;
	/** From now on the process answers not ready: it is draining before it stops. */
	markShuttingDown(): void;
};

export function createReadinessCheck(deps: {
	database: Database;
	storage: Storage;
	logger: Logger;
}): ReadinessCheck {
	const { database, storage, logger } = deps;
	let isShuttingDown = false;
	let running: Promise<Readiness> | undefined;
	// Logged when the answer changes, not at every probe of a load balancer.
	let lastProblems = "";
	// The latest storage probe, failed or not, and when it ended; reused while it is recent.
	let storageProbe: { endedAt: number; outcome: Promise<void> } | undefined;

	const probeStorage = async (): Promise<void> => {
		if (storageProbe && Date.now() - storageProbe.endedAt < STORAGE_PROBE_INTERVAL_MS) {
			return storageProbe.outcome;
		}
		const outcome = withinTimeout(checkStorage(storage));
		// Waited for either way: the window starts when the probe ended.
		await outcome.catch(() => {});
		storageProbe = { endedAt: Date.now(), outcome };
		return outcome;
	};

	const run = async (): Promise<Readiness> => {
		const checks: Array<[ReadinessProblem, () => Promise<void>]> = [
			["database", () => withinTimeout(checkDatabase(database))],
			["storage", probeStorage],
		];
		const results = await Promise.all(
			checks.map(async ([problem, check]) => {
				try {
					await check();
					return undefined;
				} catch (error) {
					return { problem, error };
				}
			}),
		);
		const failures = results.filter((result) => result !== undefined);
		const problems = failures.map((failure) => failure.problem);
		const summary = problems.join(",");
		if (summary !== lastProblems) {
			lastProblems = summary;
			if (failures.length > 0) {
				logger.warn("not ready", {
					problems,
					errors: failures.map((failure) => ({
						problem: failure.problem,
						message: failure.error instanceof Error ? failure.error.message : String(failure.error),
					})),
				});
			} else {
				logger.info("ready again");
			}
		}
		return { ready: problems.length === 0, problems };
	};

	return {
		check() {
			// A process on its way out answers at once, and writes nothing more to storage.
			if (isShuttingDown) return Promise.resolve({ ready: false, problems: ["shutting-down"] });
			running ??= run().finally(() => {
				running = undefined;
			});
			return running;
		},
		markShuttingDown() {
			isShuttingDown = true;
		},
	};
}
