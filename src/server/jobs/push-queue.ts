import type PgBoss from "pg-boss";
import type { PushNotification } from "../../shared/notifications/push";
import type { Logger } from "../logging/logger";
import { createTransactionExecutor, type JobTransaction, jobIdFromName } from "./job-queue";
import { startSlotWorker } from "./slot-worker";

const QUEUE = "push-delivery";

/** One attempt to push one message to one subscription; `attempt` counts from 1. */
export type PushAttemptJob = {
	/** The message's own id: a generation's end, or a test; the same on every attempt. */
	messageId: string;
	subscriptionId: string;
	notification: PushNotification;
	attempt: number;
};

export type PushQueue = {
	/** Queues an attempt after `delayMs`; pass the transaction it must commit with. */
	enqueue(
		job: PushAttemptJob,
		options: { delayMs: number; transaction?: JobTransaction },
	): Promise<void>;
	/** Wakes this process's idle slots at once instead of at their next poll. */
	wake(): void;
	/** Stops fetching attempts and waits (a while) for those under way. */
	stop(): Promise<void>;
};

// Derived from the message, the subscription and the attempt: queueing one twice (two processes,
// a retried transaction) is a no-op, so each message reaches each device once.
function jobIdOf(job: PushAttemptJob): string {
	return jobIdFromName(`${job.messageId}#${job.subscriptionId}#${job.attempt}`);
}

/**
 * Push attempts through pg-boss, as webhook attempts go: each attempt is a job, fetched by one
 * process only, surviving restarts, run in slots (jobs/slot-worker.ts) so one push service that
 * never answers holds one slot, not the others'. A job is retried by pg-boss only when its attempt
 * could not be recorded (the database was out); a push service's refusal for now is a new
 * attempt, queued by the one before on the back-off schedule. `concurrency` 0: this process sends
 * none.
 */
export async function startPushQueue(options: {
	boss: PgBoss;
	logger: Logger;
	concurrency: number;
	/** The longest one attempt can take, for pg-boss's expiry. */
	attemptTimeoutMs: number;
	deliver(job: PushAttemptJob, queue: PushQueue): Promise<void>;
}): Promise<PushQueue> {
	const { boss } = options;
	await boss.createQueue(QUEUE, {
		name: QUEUE,
		policy: "standard",
		retryLimit: 3,
		retryDelay: 5,
		expireInSeconds: Math.ceil(options.attemptTimeoutMs / 1000) + 60,
	});
	const queue: PushQueue = {
		async enqueue(job, { delayMs, transaction }) {
			const executor = transaction && createTransactionExecutor(transaction);
			await boss.send(QUEUE, job satisfies PushAttemptJob, {
				id: jobIdOf(job),
				...(delayMs > 0 ? { startAfter: new Date(Date.now() + delayMs) } : {}),
				...(executor ? { db: executor as PgBoss.Db } : {}),
			});
		},
		wake: () => worker.wake(),
		stop: () => worker.stop(),
	};
	const worker = startSlotWorker<PushAttemptJob>({
		boss,
		queue: QUEUE,
		logger: options.logger,
		concurrency: options.concurrency,
		jobName: "push attempt",
		run: (job) => options.deliver(job.data, queue),
	});
	return queue;
}
