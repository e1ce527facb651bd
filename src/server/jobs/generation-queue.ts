import { type Kysely, sql } from "kysely";
import type PgBoss from "pg-boss";
import type { Database } from "../db/database";
import type { DatabaseSchema } from "../db/schema";
import type { Logger } from "../logging/logger";
import {
	createTransactionExecutor,
	JOB_SCHEMA,
	type JobTransaction,
	type SqlExecutor,
} from "./job-queue";

/** How long a stopping process waits for its runs under way, after pg-boss's own wait. */
const DRAIN_WAIT_MS = 10_000;

const QUEUE = "generation";

type GenerationJobData = { generationId: string };

export type GenerationQueue = {
	/** Queues a generation; pass the transaction that inserted its row so both commit together. */
	enqueue(generationId: string, options?: { transaction?: JobTransaction }): Promise<void>;
	/** Wakes this process's idle workers at once instead of at their next poll. */
	wake(): void;
	/** Hands generations whose run died back to the queue now (a timer does it every lease). */
	sweep(): Promise<void>;
	/** Stops sweeping and starting runs; the workers stop with the process's pg-boss. */
	stop(): void;
	/** Resolves once no run of this process is under way (after stop and the pg-boss stop). */
	drain(): Promise<void>;
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
	/** How many generations a worker could claim now: queued, or their run's lease ran out. */
	countClaimable(db: Db): Promise<number>;
};

/**
 * Jobs that wait for a worker (created, or to be retried), read in the sweeper's transaction: on
 * PGlite the pool has one connection, which that transaction holds, so pg-boss's own
 * getQueueSize (the same count on its pool) would wait for it forever.
 */
async function countWaitingJobs(db: Db): Promise<number> {
	const result = await sql<{ count: string }>`
		select count(*) as count from ${sql.table(`${JOB_SCHEMA}.job`)}
		where name = ${QUEUE} and state in ('created', 'retry')`.execute(db);
	return Number(result.rows[0]?.count ?? 0);
}

/**
 * pg-boss runs generations: jobs survive restarts and spread over every server process on the
 * same database. Each generation has at most one job, whose id is the generation's id, so sending
 * it twice is a no-op. A job is one turn of a worker: the worker that takes it runs whichever
 * generation is next in the fair queue (claimGeneration), not necessarily the job's own, so what
 * must hold is that there are as many waiting jobs as generations to claim (a job too many finds
 * nothing and ends). A sweeper hands back to the queue the generations whose run died (their
 * lease ran out): it adds the jobs that are missing, one sweeper at a time across every process.
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
	/** Runs the next generation in the fair queue's order, if any waits. */
	run(): Promise<unknown>;
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
	 * Tops the waiting jobs up to the generations there are to claim, giving the missing jobs to
	 * generations `find` returns: one whose job is waiting is passed over, one whose job ran (its run
	 * died, or the job ran another generation) has it replaced. Jobs that are waiting already cover
	 * as many generations, whichever generations' ids they bear. The generations are looked up again
	 * under a lock that only one process holds at a time, so processes sweeping together never hand
	 * one generation out twice.
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
			// Read after the claimable count: a job taken meanwhile only makes a job too many.
			const claimable = await options.recovery.countClaimable(transaction);
			let missing = claimable - (await countWaitingJobs(transaction));
			for (const id of await find(transaction)) {
				if (missing <= 0) return;
				const job = await boss.getJobById<GenerationJobData>(QUEUE, id, {
					db,
					includeArchive: false,
				});
				if (job && (job.state === "created" || job.state === "retry")) continue;
				logger.info("re-queueing a generation whose run stopped", { generationId: id });
				if (job) await boss.deleteJob(QUEUE, id, { db });
				await send(id, executor);
				missing -= 1;
			}
		});

	if (options.isSoleProcess) {
		// Whatever held these leases was this same server before it stopped.
		await options.recovery.releaseAllLeases(database.db);
	}

	// Runs under way, so that stopping waits for them (up to DRAIN_WAIT_MS): pg-boss records a job's end without waiting
	// for it, and a job fetched just as it stops may start after its own wait has ended.
	const underWay = new Set<Promise<unknown>>();
	let isStopping = false;
	const handle = async (jobs: PgBoss.Job<GenerationJobData>[]) => {
		// The job's own generation may run at another job's turn: see claimGeneration. Once the
		// process stops, a job's turn is left to the next process (its generation stays queued).
		for (const _job of jobs) {
			if (isStopping) return;
			const run = options.run();
			underWay.add(run);
			try {
				await run;
			} finally {
				underWay.delete(run);
			}
		}
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
		enqueue: (generationId, { transaction } = {}) =>
			send(generationId, transaction && createTransactionExecutor(transaction)),
		wake() {
			for (const workerId of workerIds) boss.notifyWorker(workerId);
		},
		sweep,
		stop() {
			isStopping = true;
			clearInterval(sweepTimer);
		},
		async drain() {
			// A run following a slow provider is not waited for long: its lease runs out and another
			// process (or this one, started again) takes it over.
			const giveUp = new Promise((resolve) => setTimeout(resolve, DRAIN_WAIT_MS).unref());
			await Promise.race([Promise.allSettled([...underWay]), giveUp]);
			// pg-boss records the last job's end a moment after its run settles.
			await new Promise((resolve) => setImmediate(resolve));
		},
	};
}
