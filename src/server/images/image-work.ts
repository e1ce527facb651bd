/**
 * Image encodings (one sharp pipeline each: a render, a stored copy, a preview frame) that run at
 * once in this process: libuv's pool of four threads less one. Each pipeline takes a thread of
 * that pool, which password hashes (auth/password-hashing.ts) and file reads and writes share;
 * unbounded, a crowd's generations (four at once, four images each, three pipelines an image)
 * queued dozens of pipelines ahead of every hash, and a sign-up waited behind seconds of encoding
 * and was refused. Bounded, no more pipelines are in the pool than it runs at once, so a hash
 * waits for no encoding, and three still keep the cores busy (each pipeline is mostly one thread:
 * SVG rasterising and JPEG and WebP encoding are).
 */
export const IMAGE_WORK_CONCURRENCY = 3;

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
