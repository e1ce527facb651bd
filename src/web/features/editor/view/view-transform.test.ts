import { describe, expect, it } from "vitest";
import {
	fitView,
	MAX_ZOOM,
	MIN_ZOOM,
	panBy,
	toImagePoint,
	wheelZoomFactor,
	zoomAround,
} from "./view-transform";

describe("the editor's view", () => {
	it("fits the image whole and centred, never above 100 %", () => {
		expect(fitView({ width: 1000, height: 500 }, 532, 332)).toEqual({
			scale: 0.5,
			offsetX: 16,
			offsetY: 41,
		});
		expect(fitView({ width: 100, height: 100 }, 1000, 1000).scale).toBe(1);
	});

	it("keeps the image point under the pointer where it was when zooming", () => {
		const view = { scale: 0.5, offsetX: 16, offsetY: 41 };
		const pointer = { x: 200, y: 120 };
		const before = toImagePoint(view, pointer);
		const zoomed = zoomAround(view, pointer, 2);
		expect(zoomed.scale).toBe(2);
		const after = toImagePoint(zoomed, pointer);
		expect(after.x).toBeCloseTo(before.x);
		expect(after.y).toBeCloseTo(before.y);
	});

	it("zooms from 25 % to 800 % and no further", () => {
		const view = { scale: 1, offsetX: 0, offsetY: 0 };
		expect(zoomAround(view, { x: 0, y: 0 }, 20).scale).toBe(MAX_ZOOM);
		expect(zoomAround(view, { x: 0, y: 0 }, 0.01).scale).toBe(MIN_ZOOM);
		expect(MIN_ZOOM).toBe(0.25);
		expect(MAX_ZOOM).toBe(8);
	});

	it("pans by screen pixels and zooms in for a wheel turned away", () => {
		expect(panBy({ scale: 2, offsetX: 1, offsetY: 2 }, { x: 10, y: -5 })).toEqual({
			scale: 2,
			offsetX: 11,
			offsetY: -3,
		});
		expect(wheelZoomFactor(-100)).toBeCloseTo(1.2);
		expect(wheelZoomFactor(100)).toBeCloseTo(1 / 1.2);
	});
});
