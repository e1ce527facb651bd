import { describe, expect, it } from "vitest";
import {
	addsPixels,
	centreInFrame,
	frameForRatio,
	frameOf,
	movePlacement,
	NO_EXPANSION,
	placementFromPercentages,
	toExpandRequest,
} from "./expand-geometry";

const square = { width: 1024, height: 1024 };

describe("expand's geometry", () => {
	it("makes a square 16:9 by adding room left and right, centred", () => {
		const frame = frameForRatio(square, "--ar 16:9");
		expect(frame.height).toBe(1024);
		expect(frame.width).toBeCloseTo((1024 * 16) / 9);
		const placement = centreInFrame(square, frame);
		expect(placement.top).toBe(0);
		expect(placement.left).toBeCloseTo(0.3889, 4);
		expect(placement.left).toBe(placement.right);
		expect(Math.round(frameOf(square, placement).width)).toBe(1820);
		expect(toExpandRequest(placement)).toEqual({ left: 0.3889, right: 0.3889, top: 0, bottom: 0 });
	});

	it("makes a landscape image portrait by adding room above and below", () => {
		const frame = frameForRatio({ width: 1536, height: 1024 }, "--ar 9:16");
		expect(frame.width).toBe(1536);
		expect(frame.height).toBeCloseTo((1536 * 16) / 9);
		// 2100 × 16 / 9 would add more than the image's height on each side: held to three heights.
		expect(frameForRatio({ width: 2100, height: 900 }, "--ar 9:16").height).toBe(2700);
	});

	it("adds nothing for the image's own ratio", () => {
		const placement = centreInFrame(square, frameForRatio(square, "--ar 1:1"));
		expect(placement).toEqual(NO_EXPANSION);
		expect(addsPixels(square, placement)).toBe(false);
	});

	it("moves the image inside its frame by dragging, each side between none and the image's size", () => {
		const centred = { left: 0.4, right: 0.4, top: 0, bottom: 0 };
		const moved = movePlacement(square, centred, { x: -204.8, y: 50 });
		expect(moved.left).toBeCloseTo(0.2);
		expect(moved.right).toBeCloseTo(0.6);
		expect(moved.top).toBe(0);
		expect(moved.bottom).toBe(0);
		const against = movePlacement(square, centred, { x: -5000, y: 0 });
		expect(against).toEqual({ left: 0, right: 0.8, top: 0, bottom: 0 });
		const wide = { left: 0.75, right: 0.75, top: 0, bottom: 0 };
		expect(movePlacement(square, wide, { x: 5000, y: 0 })).toEqual({
			left: 1,
			right: 0.5,
			top: 0,
			bottom: 0,
		});
	});

	it("reads a percentage per side, held from 0 to 100", () => {
		expect(placementFromPercentages({ left: 25, right: 0, top: 150, bottom: -3 })).toEqual({
			left: 0.25,
			right: 0,
			top: 1,
			bottom: 0,
		});
		expect(addsPixels(square, { left: 0.25, right: 0, top: 0, bottom: 0 })).toBe(true);
	});
});
