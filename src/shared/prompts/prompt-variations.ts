/**
 * Variations from one prompt: `{red|green|blue} car` holds one group of three options, and expands
 * to one prompt per combination of its groups' options, or to N of them picked at random by a
 * seed. Shared by the server, which expands, and the generator, which shows the count before
 * Generate.
 */
import {
	sharedVariationNested,
	sharedVariationNoGroup,
	sharedVariationUnbalanced,
} from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";

/** A prompt cut into plain text and `{a|b}` groups, in order. */
export type VariationPart = { text: string } | { options: readonly string[] };

export type VariationParse =
	| { ok: true; parts: readonly VariationPart[]; groups: number; combinations: number }
	| { ok: false; message: (options?: MessageOptions) => string };

/** The refusals of a prompt's choices, each written in the language it is asked in. */
export const VARIATION_MESSAGES = {
	unbalanced: sharedVariationUnbalanced,
	nested: sharedVariationNested,
	noGroup: sharedVariationNoGroup,
} as const;

/** Cuts a prompt into text and groups; a nested or unbalanced brace is refused, naming `prompt`. */
export function parseVariations(prompt: string): VariationParse {
	const parts: VariationPart[] = [];
	let text = "";
	let group: string | undefined;
	for (const character of prompt) {
		if (character === "{") {
			if (group !== undefined) return { ok: false, message: VARIATION_MESSAGES.nested };
			group = "";
		} else if (character === "}") {
			if (group === undefined) return { ok: false, message: VARIATION_MESSAGES.unbalanced };
			if (text.length > 0) parts.push({ text });
			text = "";
			parts.push({ options: group.split("|").map((option) => option.trim()) });
			group = undefined;
		} else if (group !== undefined) {
			group += character;
		} else {
			text += character;
		}
	}
	if (group !== undefined) return { ok: false, message: VARIATION_MESSAGES.unbalanced };
	if (text.length > 0) parts.push({ text });
	let groups = 0;
	let combinations = 1;
	for (const part of parts) {
		if ("options" in part) {
			groups += 1;
			combinations *= part.options.length;
		}
	}
	return { ok: true, parts, groups, combinations };
}

/** Whether the prompt holds at least one well-formed `{a|b}` group (the generator's cue). */
export function hasVariationGroups(prompt: string): boolean {
	const parsed = parseVariations(prompt);
	return parsed.ok && parsed.groups > 0;
}

/** The prompt of combination `index` (0 to combinations - 1; the first group varies slowest). */
function combinationAt(parts: readonly VariationPart[], index: number): string {
	const chosen: string[] = [];
	let rest = index;
	for (let position = parts.length - 1; position >= 0; position--) {
		const part = parts[position];
		if (part === undefined) continue;
		if ("text" in part) {
			chosen.push(part.text);
			continue;
		}
		const count = part.options.length;
		chosen.push(part.options[rest % count] ?? "");
		rest = Math.floor(rest / count);
	}
	// Choosing an empty option can leave two spaces side by side: one is enough.
	return chosen
		.reverse()
		.join("")
		.replace(/\s{2,}/g, " ")
		.trim();
}

/** Every combination, in order: `{a|b} {x|y}` gives `a x`, `a y`, `b x`, `b y`. */
export function expandAllVariations(
	parts: readonly VariationPart[],
	combinations: number,
): string[] {
	return Array.from({ length: combinations }, (_, index) => combinationAt(parts, index));
}

/** Mulberry32: a small seeded generator of numbers in [0, 1), the same everywhere for one seed. */
function seededRandom(seed: number): () => number {
	// Seeds go past 32 bits: the high part is folded in, so every seed picks its own way.
	let state = (seed ^ Math.floor(seed / 4294967296)) >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let mixed = state;
		mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
		mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * `count` distinct combinations picked at random by `seed` (at most `combinations`): one seed
 * always picks the same ones, in the same order.
 */
export function pickRandomVariations(
	parts: readonly VariationPart[],
	combinations: number,
	count: number,
	seed: number,
): string[] {
	const random = seededRandom(seed);
	const picked = new Set<number>();
	const wanted = Math.min(count, combinations);
	while (picked.size < wanted) picked.add(Math.floor(random() * combinations));
	return [...picked].map((index) => combinationAt(parts, index));
}
