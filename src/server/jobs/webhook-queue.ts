import type PgBoss from "pg-boss";
import type { Logger } from "../logging/logger";
import { createTransactionExecutor, type JobTransaction, jobIdFromName } from "./job-queue";
import { startSlotWorker } from "./slot-worker";

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
		options: {
			delayMs: number;
			transaction?: JobTransaction;
			/**
			 * The job that hands its endpoint's turn on to this attempt: part of the new job's id, since
			 * the attempt's own job may have run already, finding the turn taken.
			 */
			handedOnBy?: string;
		},
	): Promise<void>;
	/** Wakes this process's idle workers at once instead of at their next poll. */
	wake(): void;
	/** Stops fetching attempts and waits (a while) for those under way. */
	stop(): Promise<void>;
};

// The job id is derived from the delivery and attempt, so queueing the same attempt twice (two
// processes, or a retried transaction) is a no-op: each attempt is sent once. An endpoint's turn
// handed on names the job that hands it: the attempt's own job may have run already.
function jobIdOf(job: WebhookAttemptJob, handedOnBy: string | undefined): string {
	const name = `${job.deliveryId}#${job.attempt}${handedOnBy === undefined ? "" : `#${handedOnBy}`}`;
	return jobIdFromName(name);
}

/**
 * Webhook attempts through pg-boss: each attempt is a job, so a retry waiting hours survives
 * restarts and runs in whichever process fetches it first, once. A job is retried by pg-boss
 * only when its worker failed to record the attempt (the database was out, the process died).
 * The process sends up to `concurrency` attempts side by side in slots (slot-worker.ts), so one
 * slow receiver never holds the others' slots.
 */
export async function startWebhookQueue(options: {
	boss: PgBoss;
	logger: Logger;
	/** How many attempts this process sends at once (0: none, a process without workers). */
	concurrency: number;
	/** The longest one attempt can take (its request's timeout), for pg-boss's expiry. */
	attemptTimeoutMs: number;
	/** Runs one attempt, `jobId` its job; it is handed this queue, for the next attempt. */
	deliver(job: WebhookAttemptJob, queue: WebhookQueue, jobId: string): Promise<void>;
}): Promise<WebhookQueue> {
	const { boss } = options;
	const queue: WebhookQueue = {
		async enqueue(job, { delayMs, transaction, handedOnBy }) {
			const executor = transaction && createTransactionExecutor(transaction);
			await boss.send(QUEUE, job satisfies WebhookAttemptJob, {
				id: jobIdOf(job, handedOnBy),
				...(delayMs > 0 ? { startAfter: new Date(Date.now() + delayMs) } : {}),
				...(executor ? { db: executor as PgBoss.Db } : {}),
			});
		},
		wake: () => worker.wake(),
		stop: () => worker.stop(),
	};
	await boss.createQueue(QUEUE, {
		name: QUEUE,
		policy: "standard",
		retryLimit: 3,
		retryDelay: 5,
		expireInSeconds: Math.ceil(options.attemptTimeoutMs / 1000) + 60,
	});
	const worker = startSlotWorker<WebhookAttemptJob>({
		boss,
		queue: QUEUE,
		logger: options.logger,
		concurrency: options.concurrency,
		jobName: "webhook attempt",
		run: (job) => options.deliver(job.data, queue, job.id),
	});
	return queue;
}
