import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createMask } from "./mask-brush";
import { encodeMaskPng } from "./mask-png";

describe("the mask's PNG", () => {
	it("is a greyscale PNG of the mask's size holding its values", async () => {
		const mask = createMask(3, 2);
		mask.values.set([0, 128, 255, 255, 0, 7]);
		const bytes = await encodeMaskPng(mask);
		expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
		const view = new DataView(bytes.buffer);
		expect(view.getUint32(16)).toBe(3);
		expect(view.getUint32(20)).toBe(2);
		expect(bytes[24]).toBe(8);
		expect(bytes[25]).toBe(0);
		const idatLength = view.getUint32(33);
		expect(String.fromCharCode(...bytes.subarray(37, 41))).toBe("IDAT");
		const rows = inflateSync(bytes.subarray(41, 41 + idatLength));
		expect([...rows]).toEqual([0, 0, 128, 255, 0, 255, 0, 7]);
	});
});
