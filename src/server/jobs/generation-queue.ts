import { type Kysely, sql } from "kysely";
import type PgBoss from "pg-boss";
import type { Database } from "../db/database";
import type { DatabaseSchema } from "../db/schema";
import type { Logger } from "../logging/logger";
import { createTransactionExecutor, type SqlExecutor } from "./job-queue";

const QUEUE = "generation";

type GenerationJobData = { generationId: string };

export type GenerationQueue = {
	/** Queues a generation; pass the transaction that inserted its row so both commit together. */
	enqueue(generationId: string, executor?: SqlExecutor): Promise<void>;
	/** Wakes this process's idle workers at once instead of at their next poll. */
	wake(): void;
	/** Hands generations whose run died back to the queue now (a timer does it every lease). */
	sweep(): Promise<void>;
	/** Stops sweeping; the workers stop with the process's pg-boss. */
	stop(): void;
};

type Db = Kysely<DatabaseSchema>;

/** What the queue asks the generations table when it recovers from dead runs. */
type GenerationRecovery = {
	/** Unfinished generations nobody runs any more. */
	findOrphaned(db: Db): Promise<string[]>;
	/** Every unfinished generation. */
	findUnfinished(db: Db): Promise<string[]>;
	/** Frees every lease (a sole process's earlier self held them all). */
	releaseAllLeases(db: Db): Promise<void>;
};

/**
 * pg-boss runs generations: jobs survive restarts and spread over every server process on the
 * same database. Each generation has at most one job, whose id is the generation's id, so sending
 * it twice is a no-op. A sweeper hands back to the queue the generations whose run died (their
 * lease ran out): it replaces the dead run's job, one sweeper at a time across every process.
 */
export async function startGenerationQueue(options: {
	/** The process's pg-boss (job-queue.ts); whoever started it stops it. */
	boss: PgBoss;
	database: Database;
	logger: Logger;
	concurrency: number;
	leaseMs: number;
	timeoutMs: number;
	/** Only this process uses the database (embedded), so every lease at start belongs to a dead process. */
	isSoleProcess: boolean;
	recovery: GenerationRecovery;
	run(generationId: string): Promise<unknown>;
}): Promise<GenerationQueue> {
	const { boss, database, logger } = options;
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
			id: generationId,
			...(executor ? { db: executor as PgBoss.Db } : {}),
		});
	};

	/**
	 * Gives each generation `find` returns a job that will run it: a job already waiting is kept, a
	 * job that ran (its run died, or it finished while the generation did not) is replaced. The
	 * generations are looked up again under a lock that only one process holds at a time, so
	 * processes sweeping together never hand one generation out twice.
	 */
	const requeue = (find: (db: Db) => Promise<string[]>) =>
		database.db.transaction().execute(async (transaction) => {
			const lock = await sql<{ locked: boolean }>`
				select pg_try_advisory_xact_lock(hashtext('atelier:generation-requeue')) as locked`.execute(
				transaction,
			);
			if (!lock.rows[0]?.locked) return;
			const executor = createTransactionExecutor(transaction);
			const db = executor as PgBoss.Db;
			for (const id of await find(transaction)) {
				const job = await boss.getJobById<GenerationJobData>(QUEUE, id, {
					db,
					includeArchive: false,
				});
				if (job && (job.state === "created" || job.state === "retry")) continue;
				logger.info("re-queueing a generation whose run stopped", { generationId: id });
				if (job) await boss.deleteJob(QUEUE, id, { db });
				await send(id, executor);
			}
		});

	if (options.isSoleProcess) {
		// Whatever held these leases was this same server before it stopped.
		await options.recovery.releaseAllLeases(database.db);
	}

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
	if (options.isSoleProcess) await requeue(options.recovery.findUnfinished);
	const sweep = () => requeue(options.recovery.findOrphaned);
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
		sweep,
		stop() {
			clearInterval(sweepTimer);
		},
	};
}
