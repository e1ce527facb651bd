// The recipe in a WebP file: its XMP chunk, in an extended (VP8X) container.

import type { ImageRecipe } from "./image-recipe";
import {
	asciiBytes,
	concatBytes,
	detectImageFormat,
	MAX_METADATA_BYTES,
	readAscii,
	readU16LE,
	readU32LE,
	startsWith,
	utf8Decoder,
	utf8Encoder,
	writeU24LE,
	writeU32LE,
} from "./image-recipe-bytes";
import { formatRecipeXmp, parseRecipeXmp } from "./image-recipe-xmp";

type RiffChunk = { fourcc: string; start: number; end: number; data: Uint8Array };

/** The chunks of a WebP file; null unless every chunk is whole within the RIFF size. */
function walkWebp(bytes: Uint8Array): RiffChunk[] | null {
	if (detectImageFormat(bytes) !== "webp") return null;
	const riffEnd = 8 + readU32LE(bytes, 4);
	if (riffEnd > bytes.length || riffEnd < 12) return null;
	const chunks: RiffChunk[] = [];
	let offset = 12;
	while (offset + 8 <= riffEnd) {
		const size = readU32LE(bytes, offset + 4);
		const dataEnd = offset + 8 + size;
		if (dataEnd > riffEnd) return null;
		const fourcc = readAscii(bytes, offset, 4);
		// Chunks are padded to an even length.
		const end = Math.min(dataEnd + (size % 2), riffEnd);
		chunks.push({ fourcc, start: offset, end, data: bytes.subarray(offset + 8, dataEnd) });
		offset = end;
	}
	return offset === riffEnd ? chunks : null;
}

export function readWebpRecipe(bytes: Uint8Array): ImageRecipe | null {
	// A whole file is not needed to read it: a recipe in a chunk that is there is still found.
	if (detectImageFormat(bytes) !== "webp") return null;
	const riffEnd = Math.min(8 + readU32LE(bytes, 4), bytes.length);
	let offset = 12;
	while (offset + 8 <= riffEnd) {
		const size = readU32LE(bytes, offset + 4);
		const dataEnd = offset + 8 + size;
		if (dataEnd > riffEnd) return null;
		if (readAscii(bytes, offset, 4) === "XMP " && size <= MAX_METADATA_BYTES) {
			return parseRecipeXmp(utf8Decoder.decode(bytes.subarray(offset + 8, dataEnd)));
		}
		offset = dataEnd + (size % 2);
	}
	return null;
}

const VP8X_ICC = 0x20;
const VP8X_ALPHA = 0x10;
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

/** The canvas of a simple (VP8 or VP8L) WebP, from its bitstream's header. */
function readBitstreamSize(
	chunk: RiffChunk,
): { width: number; height: number; alpha: boolean } | null {
	const { data } = chunk;
	if (chunk.fourcc === "VP8 ") {
		// A key frame: a 3-byte frame tag whose lowest bit is 0, then the start code 9d 01 2a.
		if (data.length < 10 || (data[0] ?? 1) & 1 || !startsWith(data, [0x9d, 0x01, 0x2a], 3)) {
			return null;
		}
		return {
			width: readU16LE(data, 6) & 0x3fff,
			height: readU16LE(data, 8) & 0x3fff,
			alpha: false,
		};
	}
	if (chunk.fourcc === "VP8L") {
		if (data.length < 5 || data[0] !== 0x2f) return null;
		const bits = readU32LE(data, 1);
		return {
			width: (bits & 0x3fff) + 1,
			height: ((bits >>> 14) & 0x3fff) + 1,
			alpha: ((bits >>> 28) & 1) === 1,
		};
	}
	return null;
}

/** The VP8X chunk a simple WebP needs to carry metadata, with the flags of what the file holds. */
function vp8xChunk(image: RiffChunk, others: readonly RiffChunk[]): Uint8Array | null {
	const size = readBitstreamSize(image);
	if (!size || size.width < 1 || size.height < 1) return null;
	let flags = VP8X_XMP | (size.alpha ? VP8X_ALPHA : 0);
	if (others.some((chunk) => chunk.fourcc === "ICCP")) flags |= VP8X_ICC;
	if (others.some((chunk) => chunk.fourcc === "EXIF")) flags |= VP8X_EXIF;
	const chunk = new Uint8Array(18);
	chunk.set(asciiBytes("VP8X"), 0);
	writeU32LE(chunk, 4, 10);
	chunk[8] = flags;
	writeU24LE(chunk, 12, size.width - 1);
	writeU24LE(chunk, 15, size.height - 1);
	return chunk;
}

function riffChunk(fourcc: string, data: Uint8Array): Uint8Array {
	const chunk = new Uint8Array(8 + data.length + (data.length % 2));
	chunk.set(asciiBytes(fourcc), 0);
	writeU32LE(chunk, 4, data.length);
	chunk.set(data, 8);
	return chunk;
}

/**
 * The WebP in its extended form (VP8X) with the XMP flag set and the recipe's `XMP ` chunk last,
 * replacing any XMP chunk there was; a simple VP8 or VP8L file gains a VP8X chunk with its
 * canvas read from the bitstream. The image chunks are copied as they were, and the RIFF size
 * follows. Null when the file is not a WebP whose chunks can be followed.
 */
export function writeWebpRecipe(
	bytes: Uint8Array,
	recipe: ImageRecipe,
): Uint8Array<ArrayBuffer> | null {
	const chunks = walkWebp(bytes);
	const first = chunks?.[0];
	if (!chunks || !first) return null;
	const others = chunks.filter((chunk) => chunk.fourcc !== "XMP ");
	let header: Uint8Array | null;
	let rest: RiffChunk[];
	if (first.fourcc === "VP8X") {
		if (first.data.length < 10) return null;
		header = bytes.slice(first.start, first.end);
		header[8] = (header[8] ?? 0) | VP8X_XMP;
		rest = others.slice(1);
	} else {
		header = vp8xChunk(first, others);
		rest = others;
	}
	if (!header) return null;
	const file = concatBytes([
		bytes.subarray(0, 12),
		header,
		...rest.map((chunk) => bytes.subarray(chunk.start, chunk.end)),
		riffChunk("XMP ", utf8Encoder.encode(formatRecipeXmp(recipe))),
	]);
	writeU32LE(file, 4, file.length - 8);
	return file;
}
