/** A seeded source of numbers in [0, 1); the whole engine draws from these so renders repeat. */
export type Random = {
	next(): number;
	/** A number in [min, max). */
	range(min: number, max: number): number;
	/** An integer in [min, max]. */
	integer(min: number, max: number): number;
	chance(probability: number): boolean;
	pick<T>(items: readonly T[]): T;
};

/** A 32-bit hash of a string (cyrb53's mixing, folded to 32 bits): stable across runs and hosts. */
export function hashString(text: string, seed = 0): number {
	let h1 = 0xdeadbeef ^ seed;
	let h2 = 0x41c6ce57 ^ seed;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		h1 = Math.imul(h1 ^ code, 2654435761);
		h2 = Math.imul(h2 ^ code, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return (h1 ^ h2) >>> 0;
}

/** mulberry32: tiny, fast and good enough for art; not for anything secret. */
export function createRandom(seed: number): Random {
	let state = seed >>> 0;
	const next = (): number => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		range: (min, max) => min + (max - min) * next(),
		integer: (min, max) => min + Math.floor(next() * (max - min + 1)),
		chance: (probability) => next() < probability,
		pick: <T>(items: readonly T[]): T => {
			const item = items[Math.floor(next() * items.length)];
			if (item === undefined) throw new Error("Cannot pick from an empty list");
			return item;
		},
	};
}

/** A copy of `items` in a seeded order (Fisher-Yates). */
export function shuffle<T>(items: readonly T[], random: Random): T[] {
	const result = [...items];
	for (let index = result.length - 1; index > 0; index--) {
		const other = random.integer(0, index);
		const current = result[index];
		const swapped = result[other];
		if (current === undefined || swapped === undefined) continue;
		result[index] = swapped;
		result[other] = current;
	}
	return result;
}
