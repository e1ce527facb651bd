import { describe, expect, it } from "vitest";
import {
	brushStrength,
	createMask,
	drawSegment,
	invertMask,
	isMaskEmpty,
	stampDab,
} from "./mask-brush";

const valueAt = (mask: ReturnType<typeof createMask>, x: number, y: number) =>
	mask.values[y * mask.width + x];

describe("the brush", () => {
	it("paints full strength to its edge when hard, and nothing beyond its radius", () => {
		const mask = createMask(40, 40);
		stampDab(mask, { x: 20, y: 20 }, { size: 20, hardness: 1, mode: "paint" });
		expect(valueAt(mask, 20, 20)).toBe(255);
		expect(valueAt(mask, 28, 20)).toBe(255);
		expect(valueAt(mask, 31, 20)).toBe(0);
		expect(valueAt(mask, 0, 0)).toBe(0);
	});

	it("fades from its core to nothing at its radius when soft", () => {
		expect(brushStrength(0, 10, 0.5)).toBe(1);
		expect(brushStrength(5, 10, 0.5)).toBe(1);
		expect(brushStrength(7.5, 10, 0.5)).toBeCloseTo(0.5);
		expect(brushStrength(10, 10, 0.5)).toBe(0);
		const mask = createMask(40, 40);
		stampDab(mask, { x: 20, y: 20 }, { size: 20, hardness: 0, mode: "paint" });
		const middle = valueAt(mask, 25, 20) ?? 0;
		expect(middle).toBeGreaterThan(0);
		expect(middle).toBeLessThan(255);
		expect(valueAt(mask, 20, 20)).toBeGreaterThan(middle);
	});

	it("does not build up where the dabs of a stroke overlap", () => {
		const mask = createMask(60, 20);
		drawSegment(mask, { x: 10, y: 10 }, { x: 50, y: 10 }, { size: 10, hardness: 0, mode: "paint" });
		const once = createMask(60, 20);
		stampDab(once, { x: 30, y: 10 }, { size: 10, hardness: 0, mode: "paint" });
		// Along the stroke's line every pixel is as strong as a dab's centre, no stronger.
		expect(valueAt(mask, 30, 10)).toBe(valueAt(once, 30, 10));
		expect(valueAt(mask, 30, 13)).toBeGreaterThanOrEqual(valueAt(once, 30, 13) ?? 0);
		expect(valueAt(mask, 30, 13)).toBeLessThan(255);
	});

	it("erases what was painted, softly at a soft edge", () => {
		const mask = createMask(40, 40);
		mask.values.fill(255);
		const touched = stampDab(mask, { x: 20, y: 20 }, { size: 10, hardness: 0.5, mode: "erase" });
		expect(valueAt(mask, 20, 20)).toBe(0);
		expect(valueAt(mask, 0, 0)).toBe(255);
		expect(touched).toEqual({ x: 15, y: 15, width: 10, height: 10 });
	});

	it("reports the pixels a segment touched, clipped to the mask", () => {
		const mask = createMask(20, 20);
		const touched = drawSegment(
			mask,
			{ x: -5, y: 10 },
			{ x: 10, y: 10 },
			{ size: 4, hardness: 1, mode: "paint" },
		);
		expect(touched).toEqual({ x: 0, y: 8, width: 12, height: 4 });
	});

	it("inverts every pixel, and says when nothing may change", () => {
		const mask = createMask(4, 1);
		expect(isMaskEmpty(mask)).toBe(true);
		mask.values.set([0, 64, 255, 0]);
		invertMask(mask);
		expect([...mask.values]).toEqual([255, 191, 0, 255]);
		expect(isMaskEmpty(mask)).toBe(false);
	});
});
