import { CompiledQuery, sql } from "kysely";
import PgBoss from "pg-boss";
import type { Database } from "../db/database";
import type { Logger } from "../logger";

const QUEUE = "generation";

export type GenerationJobData = { generationId: string };

export type GenerationQueue = {
	/** Queues a generation; pass the transaction that inserted its row so both commit together. */
	enqueue(generationId: string, executor?: SqlExecutor): Promise<void>;
	/** Wakes this process's idle workers at once instead of at their next poll. */
	wake(): void;
	stop(): Promise<void>;
};

export type SqlExecutor = {
	executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
};

/** Lets pg-boss run its statements on our pool (PGlite has exactly one session to share). */
export function createPoolExecutor(database: Database): SqlExecutor {
	return {
		executeSql: (text, values) => database.pool.query(text, values),
	};
}

/** Lets pg-boss write its job inside a Kysely transaction. */
export function createTransactionExecutor(transaction: {
	executeQuery: Database["db"]["executeQuery"];
}): SqlExecutor {
	return {
		async executeSql(text, values) {
			const result = await transaction.executeQuery(CompiledQuery.raw(text, values));
			return { rows: [...result.rows] };
		},
	};
}

/**
 * pg-boss runs generations: jobs survive restarts and spread over every server process on the
 * same database. A sweeper re-queues generations whose worker died (its lease ran out).
 */
export async function startGenerationQueue(options: {
	database: Database;
	logger: Logger;
	concurrency: number;
	leaseMs: number;
	timeoutMs: number;
	/** Only this process uses the database (embedded), so every lease at start belongs to a dead process. */
	isSoleProcess: boolean;
	run(generationId: string): Promise<unknown>;
}): Promise<GenerationQueue> {
	const { database, logger } = options;
	const boss = new PgBoss({
		db: createPoolExecutor(database) as PgBoss.Db,
		schema: "pgboss",
		supervise: true,
		schedule: false,
		migrate: true,
		maintenanceIntervalSeconds: 120,
	});
	boss.on("error", (error) => logger.error("job queue error", { error }));
	await boss.start();
	await boss.createQueue(QUEUE, {
		name: QUEUE,
		policy: "standard",
		// The worker retries provider calls itself; a job is retried only when its worker died.
		retryLimit: 3,
		retryDelay: 5,
		expireInSeconds: Math.ceil(options.timeoutMs / 1000) + 60,
	});

	const send = async (generationId: string, executor?: SqlExecutor) => {
		await boss.send(QUEUE, { generationId } satisfies GenerationJobData, {
			singletonKey: generationId,
			...(executor ? { db: executor as PgBoss.Db } : {}),
		});
	};

	if (options.isSoleProcess) {
		// Whatever held these leases was this same server before it stopped.
		await database.db
			.updateTable("generations")
			.set({ lease_owner: null, lease_until: null })
			.where("status", "in", ["queued", "running"])
			.execute();
	}

	const sweep = async () => {
		const orphans = await database.db
			.selectFrom("generations")
			.select("id")
			.where("status", "in", ["queued", "running"])
			.where((eb) =>
				eb.or([
					eb("lease_until", "<", sql<Date>`now()`),
					eb.and([
						eb("lease_until", "is", null),
						eb("created_at", "<", sql<Date>`now() - interval '30 seconds'`),
					]),
				]),
			)
			.limit(100)
			.execute();
		for (const { id } of orphans) {
			logger.info("re-queueing a generation whose worker stopped", { generationId: id });
			await send(id);
		}
	};

	const handle = async (jobs: PgBoss.Job<GenerationJobData>[]) => {
		for (const job of jobs) await options.run(job.data.generationId);
	};
	const workerIds: string[] = [];
	for (let index = 0; index < options.concurrency; index++) {
		workerIds.push(
			await boss.work<GenerationJobData>(
				QUEUE,
				{ batchSize: 1, pollingIntervalSeconds: 0.5 },
				handle,
			),
		);
	}

	// Unfinished generations from before a restart are picked up at once, not after a lease ends.
	if (options.isSoleProcess) {
		const unfinished = await database.db
			.selectFrom("generations")
			.select("id")
			.where("status", "in", ["queued", "running"])
			.execute();
		for (const { id } of unfinished) await send(id);
	}
	const sweepTimer = setInterval(
		() => {
			sweep().catch((error) => logger.warn("generation sweep failed", { error }));
		},
		Math.max(1000, options.leaseMs),
	);
	sweepTimer.unref();

	return {
		enqueue: send,
		wake() {
			for (const workerId of workerIds) boss.notifyWorker(workerId);
		},
		async stop() {
			clearInterval(sweepTimer);
			await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
		},
	};
}
