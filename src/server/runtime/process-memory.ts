import v8 from "node:v8";
import sharp from "sharp";

/**
 * How far V8 lets its old generation grow past what the last full collection kept, in percent.
 * V8 picks the factor itself, between 1.1 and 4 by how fast it collects against how fast the
 * program allocates; on a machine with a large heap limit it picks high, and under a crowd the old
 * generation grew from 46 to 160 MB over a live set of about 60 MB. At 25 % it stays within about
 * 75 MB, for no CPU the load benchmark can tell
 * (docs/decisions/044-the-cores-a-generation-takes.md).
 */
export const HEAP_GROWING_PERCENT = 25;

/**
 * The process's memory policy, applied once at start, before the first request:
 * - libvips keeps recent operations' results for reuse (up to 50 MB); every image here is
 *   processed once, so that cache only holds memory (docs/decisions/010-embedded-memory.md);
 * - V8 grows its heap by HEAP_GROWING_PERCENT past the live set. V8 reads the flag at every full
 *   collection, so setting it at run time takes effect (Node refuses no such flag at run time, but
 *   a release that dropped it would ignore it: process-memory.test.ts would then fail).
 */
export function limitProcessMemory(): void {
	sharp.cache(false);
	v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
