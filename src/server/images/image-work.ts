/**
 * Image encodings (one sharp pipeline each: a render, a stored copy, a preview frame) that run at
 * once in this process. Each takes a thread of libuv's pool of four, which password hashes (up to
 * one a core, auth/password-hashing.ts) and file reads and writes share, and libvips runs a
 * pipeline on threads of its own, so two keep the cores busy. Unbounded, a crowd's generations
 * (four at once, four images each, three copies an image) queued dozens of pipelines ahead of
 * every hash: a sign-up waited behind seconds of encoding and was refused.
 */
export const IMAGE_WORK_CONCURRENCY = 2;

// The process's one bound, as libuv's pool is the process's.
const waiting: Array<() => void> = [];
let running = 0;

/** Runs `task` (one sharp pipeline) in its turn: at most IMAGE_WORK_CONCURRENCY at once, in order. */
export async function runImageWork<T>(task: () => Promise<T>): Promise<T> {
	if (running >= IMAGE_WORK_CONCURRENCY) {
		// The task ending hands its place over, so `running` stays put.
		await new Promise<void>((resolve) => waiting.push(resolve));
	} else {
		running += 1;
	}
	try {
		return await task();
	} finally {
		const next = waiting.shift();
		if (next) next();
		else running -= 1;
	}
}
