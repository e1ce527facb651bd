import { describe, expect, it } from "vitest";
import {
	expandAllVariations,
	hasVariationGroups,
	parseVariations,
	pickRandomVariations,
	VARIATION_MESSAGES,
} from "./prompt-variations";

function parsed(prompt: string) {
	const result = parseVariations(prompt);
	if (!result.ok) throw new Error(result.message());
	return result;
}

describe("prompt variations", () => {
	it("expands every combination, the first choice varying slowest", () => {
		const { parts, combinations, groups } = parsed("a {red|green} car at {dawn|dusk}");
		expect(groups).toBe(2);
		expect(combinations).toBe(4);
		expect(expandAllVariations(parts, combinations)).toEqual([
			"a red car at dawn",
			"a red car at dusk",
			"a green car at dawn",
			"a green car at dusk",
		]);
	});

	it("trims each option and closes the gap an empty option leaves", () => {
		const { parts, combinations } = parsed("a { shiny | } car");
		expect(expandAllVariations(parts, combinations)).toEqual(["a shiny car", "a car"]);
	});

	it("reads a prompt without braces as one plain prompt", () => {
		const result = parsed("a red car");
		expect(result.groups).toBe(0);
		expect(expandAllVariations(result.parts, result.combinations)).toEqual(["a red car"]);
		expect(hasVariationGroups("a red car")).toBe(false);
		expect(hasVariationGroups("a {red|blue} car")).toBe(true);
	});

	it("refuses nested and unbalanced braces, naming the prompt", () => {
		for (const prompt of ["a {red car", "a red} car", "}{", "a {red|{dark|light} green} car"]) {
			const result = parseVariations(prompt);
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.message().startsWith("prompt:")).toBe(true);
		}
		expect(parseVariations("{a|{b}}")).toEqual({ ok: false, message: VARIATION_MESSAGES.nested });
		expect(hasVariationGroups("a {red car")).toBe(false);
	});

	it("picks distinct combinations by the seed: the same seed, the same picks", () => {
		const { parts, combinations } = parsed("{a|b|c} {x|y|z} {1|2|3}");
		const first = pickRandomVariations(parts, combinations, 5, 42);
		expect(first).toHaveLength(5);
		expect(new Set(first).size).toBe(5);
		expect(pickRandomVariations(parts, combinations, 5, 42)).toEqual(first);
		const seeds = [1, 2, 3, 4_294_967_295].map((seed) =>
			pickRandomVariations(parts, combinations, 5, seed).join(","),
		);
		expect(new Set([...seeds, first.join(",")]).size).toBeGreaterThan(1);
		for (const prompt of first) expect(expandAllVariations(parts, combinations)).toContain(prompt);
	});

	it("picks no more than there are combinations", () => {
		const { parts, combinations } = parsed("{a|b}");
		expect(pickRandomVariations(parts, combinations, 5, 7).sort()).toEqual(["a", "b"]);
	});
});
