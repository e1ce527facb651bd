import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { type ImageRecipe, parseRecipeParameters } from "./image-recipe";
import {
	detectImageFormat,
	readRecipeFromImage,
	writeJpegRecipe,
	writePngRecipe,
	writeRecipeToImage,
	writeWebpRecipe,
} from "./image-recipe-files";
import { parseRecipeXmp } from "./image-recipe-xmp";

const RECIPE: ImageRecipe = {
	prompt: "A lighthouse at dusk 🌅, café au lait sky",
	aspectRatio: "--ar 3:2",
	model: { id: "sketch", label: "Sketch" },
	count: 3,
	seed: 77,
	negativePrompt: "boats",
	quality: "medium",
	width: 96,
	height: 64,
	style: null,
};

/** A small picture with noise, so its compressed data is not trivial. */
function picture(options: { alpha?: boolean } = {}) {
	return sharp({
		create: {
			width: 96,
			height: 64,
			channels: options.alpha ? 4 : 3,
			background: "#808080",
			noise: { type: "gaussian", mean: 128, sigma: 40 },
		},
	});
}

async function pixelsOf(bytes: Uint8Array): Promise<Buffer> {
	return sharp(bytes).raw().toBuffer();
}

// Independent, simple readers of each container's image data, to compare before and after.

function pngChunks(bytes: Uint8Array): { type: string; data: Buffer }[] {
	const buffer = Buffer.from(bytes);
	const chunks = [];
	for (let offset = 8; offset < buffer.length; ) {
		const length = buffer.readUInt32BE(offset);
		chunks.push({
			type: buffer.toString("latin1", offset + 4, offset + 8),
			data: buffer.subarray(offset + 8, offset + 8 + length),
		});
		offset += 12 + length;
	}
	return chunks;
}

function pngImageData(bytes: Uint8Array): Buffer {
	return Buffer.concat(
		pngChunks(bytes)
			.filter((chunk) => chunk.type === "IDAT")
			.map((chunk) => chunk.data),
	);
}

/** Everything from the first scan on: the compressed picture of a baseline JPEG. */
function jpegScan(bytes: Uint8Array): Buffer {
	const buffer = Buffer.from(bytes);
	let offset = 2;
	while (buffer[offset + 1] !== 0xda) offset += 2 + buffer.readUInt16BE(offset + 2);
	return buffer.subarray(offset);
}

function jpegMarkers(bytes: Uint8Array): string[] {
	const buffer = Buffer.from(bytes);
	const markers = [];
	for (let offset = 2; buffer[offset + 1] !== 0xda; offset += 2 + buffer.readUInt16BE(offset + 2)) {
		const marker = buffer[offset + 1] ?? 0;
		const isXmp =
			buffer.toString("latin1", offset + 4, offset + 32) === "http://ns.adobe.com/xap/1.0/";
		const isExif = buffer.toString("latin1", offset + 4, offset + 8) === "Exif";
		markers.push(isXmp ? "XMP" : isExif ? "Exif" : marker.toString(16));
	}
	return markers;
}

function webpChunks(bytes: Uint8Array): { fourcc: string; data: Buffer }[] {
	const buffer = Buffer.from(bytes);
	const chunks = [];
	for (let offset = 12; offset < buffer.length; ) {
		const size = buffer.readUInt32LE(offset + 4);
		chunks.push({
			fourcc: buffer.toString("latin1", offset, offset + 4),
			data: buffer.subarray(offset + 8, offset + 8 + size),
		});
		offset += 8 + size + (size % 2);
	}
	return chunks;
}

function webpImageData(bytes: Uint8Array): Buffer {
	return Buffer.concat(
		webpChunks(bytes)
			.filter((chunk) => ["VP8 ", "VP8L", "ALPH"].includes(chunk.fourcc))
			.map((chunk) => chunk.data),
	);
}

describe("a PNG with its recipe", () => {
	it("carries parameters and XMP right after IHDR, reads back, and keeps IDAT byte for byte", async () => {
		const original = await picture().png().toBuffer();
		const written = writePngRecipe(original, RECIPE);
		if (!written) throw new Error("the PNG was not written");
		expect(
			pngChunks(written)
				.map((chunk) => chunk.type)
				.slice(0, 3),
		).toEqual(["IHDR", "iTXt", "iTXt"]);
		expect(pngImageData(written)).toEqual(pngImageData(original));
		expect(await pixelsOf(written)).toEqual(await pixelsOf(original));
		expect(readRecipeFromImage(written)).toEqual(RECIPE);
		// libpng reads every chunk's CRC: a wrong one would fail here.
		const metadata = await sharp(written).metadata();
		expect(metadata.xmp && parseRecipeXmp(metadata.xmp.toString("utf8"))).toEqual(RECIPE);
		const parameters = metadata.comments?.find((comment) => comment.keyword === "parameters");
		expect(parameters && parseRecipeParameters(parameters.text)).toEqual(RECIPE);
	});

	it("writes Latin-1 parameters as tEXt, as A1111 does", async () => {
		const written = writePngRecipe(await picture().png().toBuffer(), {
			...RECIPE,
			prompt: "Café au lait",
		});
		expect(
			written &&
				pngChunks(written)
					.map((chunk) => chunk.type)
					.slice(0, 3),
		).toEqual(["IHDR", "tEXt", "iTXt"]);
	});

	it("replaces the recipe it had rather than adding a second", async () => {
		const once = writePngRecipe(await picture().png().toBuffer(), RECIPE);
		const twice = once && writePngRecipe(once, { ...RECIPE, seed: 8, prompt: "Again" });
		if (!once || !twice) throw new Error("the PNG was not written");
		expect(readRecipeFromImage(twice)).toEqual({ ...RECIPE, seed: 8, prompt: "Again" });
		const recipeChunks = (bytes: Uint8Array) =>
			pngChunks(bytes).filter((chunk) =>
				/^(parameters|XML:com\.adobe\.xmp)\0/.test(chunk.data.toString("latin1")),
			);
		expect(recipeChunks(once)).toHaveLength(2);
		expect(recipeChunks(twice)).toHaveLength(2);
		expect(pngImageData(twice)).toEqual(pngImageData(once));
	});

	it("reads an A1111 PNG's parameters, and prefers XMP when both disagree", async () => {
		const a1111 = await picture()
			.png()
			.withMetadata()
			.toBuffer()
			.then((bytes) => writePngRecipe(bytes, RECIPE));
		if (!a1111) throw new Error("the PNG was not written");
		// Only the parameters chunk: what A1111 writes.
		const withoutXmp = Buffer.concat([
			a1111.subarray(0, 8),
			...splitPng(a1111).filter((chunk) => !chunk.toString("latin1").includes("XML:com.adobe.xmp")),
		]);
		expect(readRecipeFromImage(withoutXmp)).toEqual(RECIPE);
		// XMP saying something else than parameters: XMP is read.
		const other = writePngRecipe(await picture().png().toBuffer(), { ...RECIPE, seed: 1 });
		if (!other) throw new Error("the PNG was not written");
		const xmpOfOther = splitPng(other).find((chunk) =>
			chunk.toString("latin1").includes("XML:com.adobe.xmp"),
		);
		const parametersOfFirst = splitPng(withoutXmp).find((chunk) =>
			chunk.toString("latin1").includes("parameters"),
		);
		if (!xmpOfOther || !parametersOfFirst) throw new Error("chunks not found");
		const mixed = Buffer.concat([
			withoutXmp.subarray(0, 33),
			parametersOfFirst,
			xmpOfOther,
			withoutXmp.subarray(33 + parametersOfFirst.length),
		]);
		expect(readRecipeFromImage(mixed)?.seed).toBe(1);
	});
});

/** A PNG's chunks after its signature, each as its whole bytes (length, type, data, CRC). */
function splitPng(bytes: Uint8Array): Buffer[] {
	const buffer = Buffer.from(bytes);
	const chunks = [];
	for (let offset = 8; offset < buffer.length; ) {
		const end = offset + 12 + buffer.readUInt32BE(offset);
		chunks.push(buffer.subarray(offset, end));
		offset = end;
	}
	return chunks;
}

describe("a JPEG with its recipe", () => {
	it("carries an XMP segment first, reads back, and keeps the scan byte for byte", async () => {
		const original = await picture().jpeg({ quality: 80 }).toBuffer();
		const written = writeJpegRecipe(original, RECIPE);
		if (!written) throw new Error("the JPEG was not written");
		expect(jpegMarkers(written)).toEqual(["XMP", ...jpegMarkers(original)]);
		expect(jpegScan(written)).toEqual(jpegScan(original));
		expect(await pixelsOf(written)).toEqual(await pixelsOf(original));
		expect(readRecipeFromImage(written)).toEqual(RECIPE);
		const { xmp } = await sharp(written).metadata();
		expect(xmp && parseRecipeXmp(xmp.toString("utf8"))).toEqual(RECIPE);
	});

	it("goes after JFIF's APP0", async () => {
		const bare = await picture().jpeg().toBuffer();
		const jfif = Buffer.from([
			0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00,
			0x01, 0x00, 0x00,
		]);
		const original = Buffer.concat([bare.subarray(0, 2), jfif, bare.subarray(2)]);
		const written = writeJpegRecipe(original, RECIPE);
		if (!written) throw new Error("the JPEG was not written");
		expect(jpegMarkers(written).slice(0, 2)).toEqual(["e0", "XMP"]);
		expect(jpegScan(written)).toEqual(jpegScan(original));
		expect(readRecipeFromImage(written)).toEqual(RECIPE);
	});

	it("goes after Exif and replaces the XMP a file had", async () => {
		const withExif = await picture()
			.jpeg()
			.withExif({ IFD0: { Copyright: "Someone" } })
			.withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>')
			.toBuffer();
		expect(jpegMarkers(withExif)).toContain("XMP");
		const written = writeJpegRecipe(withExif, RECIPE);
		if (!written) throw new Error("the JPEG was not written");
		const markers = jpegMarkers(written);
		expect(markers.filter((marker) => marker === "XMP")).toHaveLength(1);
		expect(markers.indexOf("XMP")).toBe(markers.lastIndexOf("Exif") + 1);
		expect(jpegScan(written)).toEqual(jpegScan(withExif));
		expect(readRecipeFromImage(written)).toEqual(RECIPE);
		expect((await sharp(written).metadata()).exif).toEqual((await sharp(withExif).metadata()).exif);
	});
});

describe("a WebP with its recipe", () => {
	const cases = [
		{ name: "lossy (VP8)", make: () => picture().webp({ quality: 70 }).toBuffer(), first: "VP8 " },
		{
			name: "lossless (VP8L)",
			make: () => picture().webp({ lossless: true }).toBuffer(),
			first: "VP8L",
		},
		{
			name: "lossless with alpha (VP8L)",
			make: () => picture({ alpha: true }).webp({ lossless: true }).toBuffer(),
			first: "VP8L",
		},
		{
			name: "already extended (VP8X, with alpha)",
			make: () => picture({ alpha: true }).webp({ quality: 70 }).toBuffer(),
			first: "VP8X",
		},
	];

	it.each(cases)(
		"$name: becomes VP8X with XMP, reads back, keeps its image chunks byte for byte",
		async ({ make, first }) => {
			const original = await make();
			expect(webpChunks(original)[0]?.fourcc).toBe(first);
			const written = writeWebpRecipe(original, RECIPE);
			if (!written) throw new Error("the WebP was not written");
			const chunks = webpChunks(written);
			expect(chunks[0]?.fourcc).toBe("VP8X");
			expect(chunks.at(-1)?.fourcc).toBe("XMP ");
			expect(Buffer.from(written).readUInt32LE(4)).toBe(written.length - 8);
			expect(webpImageData(written)).toEqual(webpImageData(original));
			expect(await pixelsOf(written)).toEqual(await pixelsOf(original));
			expect(readRecipeFromImage(written)).toEqual(RECIPE);
			const metadata = await sharp(written).metadata();
			expect(metadata.xmp && parseRecipeXmp(metadata.xmp.toString("utf8"))).toEqual(RECIPE);
			expect([metadata.width, metadata.height]).toEqual([96, 64]);
			expect(metadata.hasAlpha).toBe((await sharp(original).metadata()).hasAlpha);
		},
	);

	it("replaces the XMP chunk it had", async () => {
		const once = writeWebpRecipe(await picture().webp().toBuffer(), RECIPE);
		const twice = once && writeWebpRecipe(once, { ...RECIPE, seed: 5 });
		if (!twice) throw new Error("the WebP was not written");
		expect(webpChunks(twice).filter((chunk) => chunk.fourcc === "XMP ")).toHaveLength(1);
		expect(readRecipeFromImage(twice)?.seed).toBe(5);
	});
});

describe("reading a file that carries no recipe, or is not what it claims", () => {
	it("answers null for images without one and for other files", async () => {
		for (const bytes of [
			await picture().png().toBuffer(),
			await picture().jpeg().toBuffer(),
			await picture().webp().toBuffer(),
			await picture().gif().toBuffer(),
			new TextEncoder().encode("parameters: a cat"),
			new Uint8Array(),
		]) {
			expect(readRecipeFromImage(bytes)).toBeNull();
		}
	});

	it("answers null, without throwing, for truncated files", async () => {
		const files = [
			writePngRecipe(await picture().png().toBuffer(), RECIPE),
			writeJpegRecipe(await picture().jpeg().toBuffer(), RECIPE),
			writeWebpRecipe(await picture().webp().toBuffer(), RECIPE),
		];
		for (const file of files) {
			if (!file) throw new Error("not written");
			// Cut inside the recipe's first chunk or segment, which comes early in PNG and JPEG.
			for (const length of [0, 3, 9, 40, 100]) {
				expect(readRecipeFromImage(file.subarray(0, length))).toBeNull();
			}
		}
		// WebP's comes last: a file cut inside it (not just its padding byte) has lost it.
		const webp = files[2];
		if (!webp) throw new Error("not written");
		expect(readRecipeFromImage(webp.subarray(0, webp.length - 2))).toBeNull();
	});

	it("skips a recipe chunk whose CRC is wrong", async () => {
		const file = writePngRecipe(await picture().png().toBuffer(), RECIPE);
		if (!file) throw new Error("not written");
		const broken = Buffer.from(file);
		const [, parameters, xmp] = splitPng(broken);
		if (!parameters || !xmp) throw new Error("chunks not found");
		// The last byte of each recipe chunk's CRC.
		for (const at of [33 + parameters.length - 1, 33 + parameters.length + xmp.length - 1]) {
			broken.writeUInt8(broken.readUInt8(at) ^ 0xff, at);
		}
		expect(readRecipeFromImage(broken)).toBeNull();
	});

	it("answers null for giant declared lengths and hostile sizes", async () => {
		const png = Buffer.from((await picture().png().toBuffer()).subarray(0, 33));
		const giant = Buffer.alloc(12);
		giant.writeUInt32BE(0xfffffff0, 0);
		giant.write("tEXt", 4, "latin1");
		expect(readRecipeFromImage(Buffer.concat([png, giant, Buffer.alloc(64)]))).toBeNull();

		const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, 0x68, 0x74, 0x74, 0x70]);
		expect(readRecipeFromImage(jpeg)).toBeNull();
		expect(writeJpegRecipe(jpeg, RECIPE)).toBeNull();

		const webp = Buffer.alloc(40);
		webp.write("RIFF", 0, "latin1");
		webp.writeUInt32LE(0xffffffff, 4);
		webp.write("WEBPXMP ", 8, "latin1");
		webp.writeUInt32LE(0xfffffff0, 16);
		expect(readRecipeFromImage(webp)).toBeNull();
		expect(writeWebpRecipe(webp, RECIPE)).toBeNull();
	});

	it("answers null, without throwing, for thousands of damaged copies", async () => {
		const files = [
			writePngRecipe(await picture().png().toBuffer(), RECIPE),
			writeJpegRecipe(await picture().jpeg().toBuffer(), RECIPE),
			writeWebpRecipe(await picture().webp({ lossless: true }).toBuffer(), RECIPE),
		];
		// A fixed sequence, so a failure can be replayed.
		let state = 12345;
		const next = () => {
			state = (state * 1103515245 + 12345) % 2 ** 31;
			return state;
		};
		for (const file of files) {
			if (!file) throw new Error("not written");
			for (let round = 0; round < 1000; round++) {
				const damaged = Uint8Array.from(file.subarray(0, 2000));
				for (let hit = 0; hit < 4; hit++) damaged[next() % damaged.length] = next() % 256;
				expect(() => readRecipeFromImage(damaged)).not.toThrow();
				expect(() => writeRecipeToImage(damaged, RECIPE)).not.toThrow();
			}
		}
	});
});

describe("writing to files that are not a whole image of the three", () => {
	it("answers null, so the file is served as it is", async () => {
		expect(writeRecipeToImage(await picture().gif().toBuffer(), RECIPE)).toBeNull();
		const png = await picture().png().toBuffer();
		expect(writeRecipeToImage(png.subarray(0, png.length - 6), RECIPE)).toBeNull();
		expect(writeRecipeToImage(new Uint8Array(256 * 1024).fill(7), RECIPE)).toBeNull();
		expect(detectImageFormat(png)).toBe("png");
	});
});
