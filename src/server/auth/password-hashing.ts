import { availableParallelism } from "node:os";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import { AppError } from "../http/errors";

/**
 * Password hashes (scrypt: about 32 MB and tens of milliseconds of a core each) that may run at
 * once: one core is left to the event loop (and, with the embedded database, every query), and
 * one of libuv's 4 threads to file reads and compression.
 */
export const DEFAULT_HASH_CONCURRENCY = Math.max(1, Math.min(availableParallelism() - 1, 3));

/** Longest a sign-up or sign-in waits for its turn to hash before it is answered 503. */
export const DEFAULT_HASH_MAX_WAIT_MS = 10_000;

type Waiter = { start(): void };

// Nobody reads the answer to an abandoned request; a catalogue error keeps it out of the error log.
const abandoned = (signal: AbortSignal | undefined) =>
	new AppError("SERVICE_UNAVAILABLE", undefined, { cause: signal?.reason });

/**
 * Runs at most `concurrency` tasks at a time, the others waiting their turn in order. A task that
 * has waited `maxWaitMs`, or whose request was abandoned, is refused with SERVICE_UNAVAILABLE
 * instead of being queued behind a backlog it would only make longer.
 */
export function createLimiter(options: { concurrency: number; maxWaitMs: number }) {
	let running = 0;
	const waiting: Waiter[] = [];

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
			const timer = setTimeout(() => leave(new AppError("SERVICE_UNAVAILABLE")), options.maxWaitMs);
			signal?.addEventListener("abort", onAbort, { once: true });
			waiting.push(waiter);
		});

	return async <T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
		if (signal?.aborted) throw abandoned(signal);
		// A task started by `release` inherits the finished task's slot, so `running` stays put.
		if (running >= options.concurrency) await waitForTurn(signal);
		else running += 1;
		try {
			return await task();
		} finally {
			release();
		}
	};
}

export type PasswordHasher = {
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
