import { availableParallelism } from "node:os";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import { AppError } from "../errors/app-error";

/**
 * Password hashes (scrypt: about 32 MB and 40 to 60 ms of a core each, in libuv's thread pool)
 * that may run at once: one a core, so a crowd signing up uses every core, and at most 3, so one
 * of libuv's 4 threads is always left to file reads and compression.
 */
export const DEFAULT_HASH_CONCURRENCY = Math.max(1, Math.min(availableParallelism(), 3));

/**
 * The longest wait for a turn to hash that a sign-up or sign-in is admitted to. Past it, the
 * request is answered 503 with Retry-After at once rather than queued behind a backlog it would
 * only make longer; within it, it waits. With the hash itself, a request admitted is answered
 * within 15 s: at most 12 s of predicted wait, 2 s of margin, then the hash.
 */
const DEFAULT_HASH_MAX_WAIT_MS = 12_000;

/** What one hash is expected to take before any has been timed on this machine. */
const FIRST_HASH_ESTIMATE_MS = 100;

/**
 * How much longer than its predicted wait an admitted task may wait before it is refused after
 * all: a safety net for a machine that suddenly slows, not the rule.
 */
const GIVE_UP_MARGIN_MS = 2_000;

/** Weight of the newest duration in the running average of task durations. */
const AVERAGE_WEIGHT = 0.2;

type Waiter = { start(): void };

const secondsFrom = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

// Nobody reads the answer to an abandoned request; a catalogue error keeps it out of the error log.
const abandoned = (signal: AbortSignal | undefined) =>
	new AppError("SERVICE_UNAVAILABLE", undefined, { cause: signal?.reason });

const busy = (retryAfterMs: number) =>
	new AppError("SERVICE_UNAVAILABLE", undefined, { retryAfterSeconds: secondsFrom(retryAfterMs) });

/**
 * Runs at most `concurrency` tasks at a time, the others waiting their turn in order. Admission
 * is decided on arrival: a task whose predicted wait (the tasks ahead of it, at the running
 * average of how long a task takes) is over `maxWaitMs` is refused at once with
 * SERVICE_UNAVAILABLE and a Retry-After of when such a task would be admitted again; a task
 * admitted waits its turn, refused only if it waits `giveUpMarginMs` (2 s) past `maxWaitMs`, or if
 * its request is abandoned.
 */
export function createLimiter(options: {
	concurrency: number;
	maxWaitMs: number;
	firstTaskEstimateMs?: number;
	giveUpMarginMs?: number;
}) {
	let running = 0;
	let averageTaskMs = options.firstTaskEstimateMs ?? FIRST_HASH_ESTIMATE_MS;
	const waiting: Waiter[] = [];

	/** How long a task arriving now would wait for its turn. */
	const predictWait = () => Math.ceil((waiting.length + 1) / options.concurrency) * averageTaskMs;

	const release = () => {
		const next = waiting.shift();
		if (next) next.start();
		else running -= 1;
	};

	const waitForTurn = (signal: AbortSignal | undefined) =>
		new Promise<void>((resolve, reject) => {
			const leave = (error: unknown) => {
				const index = waiting.indexOf(waiter);
				if (index >= 0) waiting.splice(index, 1);
				clearTimeout(timer);
				signal?.removeEventListener("abort", onAbort);
				reject(error);
			};
			const onAbort = () => leave(abandoned(signal));
			const waiter: Waiter = {
				start() {
					clearTimeout(timer);
					signal?.removeEventListener("abort", onAbort);
					resolve();
				},
			};
			const timer = setTimeout(
				() => leave(busy(predictWait())),
				options.maxWaitMs + (options.giveUpMarginMs ?? GIVE_UP_MARGIN_MS),
			);
			signal?.addEventListener("abort", onAbort, { once: true });
			waiting.push(waiter);
		});

	const timed = async <T>(task: () => Promise<T>): Promise<T> => {
		const started = performance.now();
		try {
			return await task();
		} finally {
			const taken = performance.now() - started;
			averageTaskMs += AVERAGE_WEIGHT * (taken - averageTaskMs);
		}
	};

	return async <T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
		if (signal?.aborted) throw abandoned(signal);
		if (running >= options.concurrency) {
			const predicted = predictWait();
			if (predicted > options.maxWaitMs) throw busy(predicted - options.maxWaitMs);
			// A task started by `release` inherits the finished task's slot, so `running` stays put.
			await waitForTurn(signal);
		} else {
			running += 1;
		}
		try {
			return await timed(task);
		} finally {
			release();
		}
	};
}

type PasswordHasher = {
	hash(password: string, signal?: AbortSignal): Promise<string>;
	verify(data: { hash: string; password: string }): Promise<boolean>;
};

/** Better Auth's own scrypt hashing, taking turns through one limiter per server. */
export function createPasswordHasher(
	options: { concurrency?: number; maxWaitMs?: number } = {},
): PasswordHasher {
	const limit = createLimiter({
		concurrency: options.concurrency ?? DEFAULT_HASH_CONCURRENCY,
		maxWaitMs: options.maxWaitMs ?? DEFAULT_HASH_MAX_WAIT_MS,
	});
	return {
		hash: (password, signal) => limit(() => hashPassword(password), signal),
		verify: (data) => limit(() => verifyPassword(data)),
	};
}
