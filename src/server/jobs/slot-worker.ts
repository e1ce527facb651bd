import type PgBoss from "pg-boss";
import type { Logger } from "../logging/logger";

/** How often idle workers look for jobs that became due. */
const POLL_INTERVAL_MS = 1_000;
/** How long stopping waits for jobs under way before leaving them to pg-boss's retry. */
const STOP_WAIT_MS = 5_000;

export type SlotWorker = {
	/** Wakes this process's idle slots at once instead of at their next poll. */
	wake(): void;
	/** Stops fetching jobs and waits (a while) for those under way. */
	stop(): Promise<void>;
};

/**
 * Runs a pg-boss queue's jobs in up to `concurrency` slots side by side, each slot taking the next
 * job as soon as its own ends, so one slow job (a receiver that never answers) holds one slot,
 * never the others' (decision 025). One poller a second fetches only as many jobs as there are
 * free slots, which keeps the queries on a shared database (PGlite has a single session) few. A job
 * whose run throws is failed, for pg-boss to retry; `concurrency` 0 runs none.
 */
export function startSlotWorker<Data extends object>(options: {
	boss: PgBoss;
	queue: string;
	logger: Logger;
	concurrency: number;
	/** What the logs call one job ("webhook attempt"). */
	jobName: string;
	run(job: PgBoss.Job<Data>): Promise<void>;
}): SlotWorker {
	const { boss, concurrency, logger, queue, jobName } = options;
	const underWay = new Set<Promise<void>>();
	let isPolling = false;
	// A wake while a fetch is under way: that fetch may have missed what woke it, so fetch again.
	let isWokenWhilePolling = false;
	let isStopped = concurrency === 0;

	async function poll(): Promise<void> {
		if (isStopped) return;
		if (isPolling) {
			isWokenWhilePolling = true;
			return;
		}
		isPolling = true;
		try {
			while (!isStopped && underWay.size < concurrency) {
				isWokenWhilePolling = false;
				const jobs = await boss.fetch<Data>(queue, { batchSize: concurrency - underWay.size });
				for (const job of jobs) start(job);
				if (jobs.length === 0 && !isWokenWhilePolling) break;
			}
		} catch (error) {
			logger.warn(`fetching a ${jobName} failed`, { error });
		} finally {
			isPolling = false;
		}
	}

	function start(job: PgBoss.Job<Data>): void {
		const running = options
			.run(job)
			.then(
				() => boss.complete(queue, job.id),
				(error: unknown) => {
					logger.warn(`${jobName} failed to run`, { jobId: job.id, error });
					return boss.fail(queue, job.id, { message: String(error) });
				},
			)
			.catch((error: unknown) =>
				logger.warn(`recording a ${jobName}'s end failed`, { jobId: job.id, error }),
			)
			.finally(() => {
				underWay.delete(running);
				void poll();
			});
		underWay.add(running);
	}

	const timer = setInterval(() => void poll(), POLL_INTERVAL_MS);
	timer.unref();
	if (isStopped) clearInterval(timer);
	return {
		wake() {
			void poll();
		},
		async stop() {
			isStopped = true;
			clearInterval(timer);
			const wait = new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref());
			await Promise.race([Promise.allSettled([...underWay]), wait]);
		},
	};
}
