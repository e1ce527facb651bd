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

/**
 * libwebp's effort for every WebP we encode (the display copy, the thumbnail, a preview frame).
 * From 3 up it searches for the best method: at 2 a 1024-pixel display copy takes 27 to 33 ms
 * instead of 63 to 74 ms and a thumbnail 12 instead of 18, for 4 to 15% more bytes at the same
 * quality; with the offline engine that is a quarter of a generation's CPU under a crowd
 * (docs/decisions/044-the-cores-a-generation-takes.md).
 */
export const WEBP_EFFORT = 2;

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
