import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { sniffImageType } from "./sniff-image-type";

function createImage() {
	return sharp({ create: { width: 8, height: 8, channels: 3, background: "#884422" } });
}

describe("sniffImageType", () => {
	it.each([
		["image/png", () => createImage().png().toBuffer()],
		["image/jpeg", () => createImage().jpeg().toBuffer()],
		["image/webp", () => createImage().webp().toBuffer()],
		["image/gif", () => createImage().gif().toBuffer()],
		["image/avif", () => createImage().avif().toBuffer()],
	])("recognises %s from its bytes", async (type, encode) => {
		expect(sniffImageType(new Uint8Array(await encode()))).toBe(type);
	});

	it("rejects bytes that are not an image", async () => {
		const encoder = new TextEncoder();
		expect(sniffImageType(new Uint8Array(0))).toBeUndefined();
		expect(sniffImageType(encoder.encode("<!doctype html><html></html>"))).toBeUndefined();
		expect(sniffImageType(encoder.encode("RIFF\0\0\0\0WAVEfmt "))).toBeUndefined();
		// A HEIC header shares AVIF's container but not its brand.
		const heic = await createImage()
			.heif({ compression: "hevc" })
			.toBuffer()
			.catch(() => undefined);
		if (heic) expect(sniffImageType(new Uint8Array(heic))).toBeUndefined();
		expect(sniffImageType(encoder.encode("\0\0\0\x18ftypheic\0\0\0\0mif1heic"))).toBeUndefined();
	});
});
