import { createHash } from "node:crypto";
import type PgBoss from "pg-boss";
import type { SqlExecutor } from "./job-queue";

const QUEUE = "webhook-delivery";

/** One attempt of one delivery; `attempt` counts from 1. */
export type WebhookAttemptJob = { deliveryId: string; attempt: number };

export type WebhookQueue = {
	/**
	 * Queues an attempt to run after `delayMs`. Pass the transaction that recorded the event (or
	 * the attempt before) so the job commits with it: no event is lost between the two.
	 */
	enqueue(
		job: WebhookAttemptJob,
		options: { delayMs: number; executor?: SqlExecutor },
	): Promise<void>;
	/** Wakes this process's idle workers at once instead of at their next poll. */
	wake(): void;
};

// The job id is derived from the delivery and attempt, so queueing the same attempt twice (two
// processes, or a retried transaction) is a no-op: each attempt is sent once.
function jobIdOf(job: WebhookAttemptJob): string {
	const hex = createHash("sha256").update(`${job.deliveryId}#${job.attempt}`).digest("hex");
	return [
		hex.slice(0, 8),
		hex.slice(8, 12),
		`5${hex.slice(13, 16)}`,
		((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16) + hex.slice(18, 20),
		hex.slice(20, 32),
	].join("-");
}

/**
 * Webhook attempts through pg-boss: each attempt is a job, so a retry waiting hours survives
 * restarts and runs in whichever process fetches it first, once. A job is retried by pg-boss
 * only when its worker failed to record the attempt (the database was out, the process died).
 */
export async function startWebhookQueue(options: {
	boss: PgBoss;
	/** How many attempts this process sends at once (0: none, a process without workers). */
	concurrency: number;
	/** The longest one attempt can take (its request's timeout), for pg-boss's expiry. */
	attemptTimeoutMs: number;
	/** Runs one attempt; it is handed this queue, for the next attempt. */
	deliver(job: WebhookAttemptJob, queue: WebhookQueue): Promise<void>;
}): Promise<WebhookQueue> {
	const { boss } = options;
	const workerIds: string[] = [];
	const queue: WebhookQueue = {
		async enqueue(job, { delayMs, executor }) {
			await boss.send(QUEUE, job satisfies WebhookAttemptJob, {
				id: jobIdOf(job),
				...(delayMs > 0 ? { startAfter: new Date(Date.now() + delayMs) } : {}),
				...(executor ? { db: executor as PgBoss.Db } : {}),
			});
		},
		wake() {
			for (const workerId of workerIds) boss.notifyWorker(workerId);
		},
	};
	await boss.createQueue(QUEUE, {
		name: QUEUE,
		policy: "standard",
		retryLimit: 3,
		retryDelay: 5,
		expireInSeconds: Math.ceil(options.attemptTimeoutMs / 1000) + 60,
	});
	// One poller fetching up to `concurrency` attempts at a time, sent side by side: attempts wait
	// on receivers (up to their timeout), and one poller keeps the queries on a shared database
	// (PGlite has a single session) to one every second.
	if (options.concurrency > 0) {
		workerIds.push(
			await boss.work<WebhookAttemptJob>(
				QUEUE,
				{ batchSize: options.concurrency, pollingIntervalSeconds: 1 },
				(jobs) => Promise.all(jobs.map((job) => options.deliver(job.data, queue))),
			),
		);
	}
	return queue;
}
