// The recipe inside PNG, JPEG and WebP files: found by walking the file's chunks or segments, and
// written by adding metadata chunks while every byte of image data is copied as it was. The files
// read may come from anyone (a dropped image), so every length is checked against the bytes there
// are, sizes are capped, and a file that does not parse answers null rather than throwing.
import {
	formatRecipeParameters,
	formatRecipeXmp,
	type ImageRecipe,
	MAX_RECIPE_TEXT,
	parseRecipeParameters,
	parseRecipeXmp,
} from "./image-recipe";

/** Largest metadata chunk or segment read for a recipe, in bytes; larger ones are skipped. */
const MAX_METADATA_BYTES = 4 * MAX_RECIPE_TEXT;

/** The keyword A1111 and ComfyUI give their settings text in PNG. */
const PARAMETERS_KEYWORD = "parameters";
/** The keyword of XMP in PNG's iTXt, from the XMP specification, part 3. */
const XMP_KEYWORD = "XML:com.adobe.xmp";
/** What starts XMP's APP1 segment in JPEG, its terminating zero included. */
const JPEG_XMP_HEADER = "http://ns.adobe.com/xap/1.0/\0";

const utf8Decoder = new TextDecoder("utf-8");
const utf8Encoder = new TextEncoder();

// Bytes ------------------------------------------------------------------------------------------

function readAscii(bytes: Uint8Array, start: number, length: number): string {
	let text = "";
	for (let index = start; index < start + length && index < bytes.length; index++) {
		text += String.fromCharCode(bytes[index] ?? 0);
	}
	return text;
}

function asciiBytes(text: string): Uint8Array {
	return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
	return prefix.every((byte, index) => bytes[at + index] === byte);
}

function readU32BE(bytes: Uint8Array, at: number): number {
	return (
		(((bytes[at] ?? 0) << 24) |
			((bytes[at + 1] ?? 0) << 16) |
			((bytes[at + 2] ?? 0) << 8) |
			(bytes[at + 3] ?? 0)) >>>
		0
	);
}

function readU32LE(bytes: Uint8Array, at: number): number {
	return (
		((bytes[at] ?? 0) |
			((bytes[at + 1] ?? 0) << 8) |
			((bytes[at + 2] ?? 0) << 16) |
			((bytes[at + 3] ?? 0) << 24)) >>>
		0
	);
}

function readU16BE(bytes: Uint8Array, at: number): number {
	return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function readU16LE(bytes: Uint8Array, at: number): number {
	return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function writeU32BE(bytes: Uint8Array, at: number, value: number): void {
	bytes[at] = value >>> 24;
	bytes[at + 1] = (value >>> 16) & 0xff;
	bytes[at + 2] = (value >>> 8) & 0xff;
	bytes[at + 3] = value & 0xff;
}

function writeU32LE(bytes: Uint8Array, at: number, value: number): void {
	bytes[at] = value & 0xff;
	bytes[at + 1] = (value >>> 8) & 0xff;
	bytes[at + 2] = (value >>> 16) & 0xff;
	bytes[at + 3] = value >>> 24;
}

function writeU24LE(bytes: Uint8Array, at: number, value: number): void {
	bytes[at] = value & 0xff;
	bytes[at + 1] = (value >>> 8) & 0xff;
	bytes[at + 2] = (value >>> 16) & 0xff;
}

/** The parts joined into one new array: one copy of each. */
function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
	const total = parts.reduce((sum, part) => sum + part.length, 0);
	const joined = new Uint8Array(total);
	let offset = 0;
	for (const part of parts) {
		joined.set(part, offset);
		offset += part.length;
	}
	return joined;
}

/** Latin-1 as PNG's tEXt holds it (TextDecoder's "latin1" is windows-1252 in browsers). */
function decodeLatin1(bytes: Uint8Array): string {
	let text = "";
	for (let start = 0; start < bytes.length; start += 8192) {
		text += String.fromCharCode(...bytes.subarray(start, start + 8192));
	}
	return text;
}

function encodeLatin1(text: string): Uint8Array | null {
	const bytes = new Uint8Array(text.length);
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code > 0xff) return null;
		bytes[index] = code;
	}
	return bytes;
}

export type ImageFormat = "png" | "jpeg" | "webp";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The container of an image, from its first bytes; null for anything else. */
export function detectImageFormat(bytes: Uint8Array): ImageFormat | null {
	if (startsWith(bytes, PNG_SIGNATURE)) return "png";
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
	if (readAscii(bytes, 0, 4) === "RIFF" && readAscii(bytes, 8, 4) === "WEBP") return "webp";
	return null;
}

// PNG --------------------------------------------------------------------------------------------

let crcTable: Uint32Array | undefined;

/** CRC-32 as PNG computes it over a chunk's type and data. */
function crc32(parts: readonly Uint8Array[]): number {
	if (!crcTable) {
		crcTable = new Uint32Array(256);
		for (let byte = 0; byte < 256; byte++) {
			let value = byte;
			for (let bit = 0; bit < 8; bit++)
				value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
			crcTable[byte] = value >>> 0;
		}
	}
	let crc = 0xffffffff;
	for (const part of parts) {
		for (const byte of part) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
	}
	return (crc ^ 0xffffffff) >>> 0;
}

type PngChunk = {
	type: string;
	/** Where the chunk starts (its length field) and ends (after its CRC) in the file. */
	start: number;
	end: number;
	data: Uint8Array;
};

/**
 * The chunks of a PNG up to IEND, as far as they are whole. `complete` says whether the walk got
 * to IEND; a truncated file or a declared length beyond its end stops it.
 */
function walkPng(bytes: Uint8Array): { chunks: PngChunk[]; complete: boolean } {
	const chunks: PngChunk[] = [];
	let offset = PNG_SIGNATURE.length;
	while (offset + 12 <= bytes.length) {
		const length = readU32BE(bytes, offset);
		const end = offset + 12 + length;
		if (length > 0x7fffffff || end > bytes.length) break;
		const type = readAscii(bytes, offset + 4, 4);
		chunks.push({ type, start: offset, end, data: bytes.subarray(offset + 8, end - 4) });
		if (type === "IEND") return { chunks, complete: true };
		offset = end;
	}
	return { chunks, complete: false };
}

function hasValidCrc(bytes: Uint8Array, chunk: PngChunk): boolean {
	const typeAndData = bytes.subarray(chunk.start + 4, chunk.end - 4);
	return crc32([typeAndData]) === readU32BE(bytes, chunk.end - 4);
}

function isTextChunk(type: string): boolean {
	return type === "tEXt" || type === "iTXt" || type === "zTXt";
}

/** The keyword of a tEXt, iTXt or zTXt chunk (1 to 79 Latin-1 characters before a zero). */
function readKeyword(data: Uint8Array): string | null {
	const end = data.subarray(0, 80).indexOf(0);
	return end > 0 ? decodeLatin1(data.subarray(0, end)) : null;
}

/** The text of an uncompressed tEXt or iTXt chunk; null for others (zTXt, compressed iTXt). */
function readTextChunk(type: string, data: Uint8Array): { keyword: string; text: string } | null {
	const keyword = readKeyword(data);
	if (keyword === null) return null;
	const afterKeyword = keyword.length + 1;
	if (type === "tEXt") return { keyword, text: decodeLatin1(data.subarray(afterKeyword)) };
	if (type !== "iTXt" || data[afterKeyword] !== 0) return null;
	// Compression flag and method, then the language tag and the translated keyword, each ended
	// by a zero.
	const languageEnd = data.indexOf(0, afterKeyword + 2);
	const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
	if (translatedEnd < 0) return null;
	return { keyword, text: utf8Decoder.decode(data.subarray(translatedEnd + 1)) };
}

function readPngRecipe(bytes: Uint8Array): ImageRecipe | null {
	let xmp: string | null = null;
	let parameters: string | null = null;
	for (const chunk of walkPng(bytes).chunks) {
		if (!isTextChunk(chunk.type) || chunk.data.length > MAX_METADATA_BYTES) continue;
		if (!hasValidCrc(bytes, chunk)) continue;
		const text = readTextChunk(chunk.type, chunk.data);
		if (text?.keyword === XMP_KEYWORD) xmp ??= text.text;
		else if (text?.keyword === PARAMETERS_KEYWORD) parameters ??= text.text;
	}
	return chooseRecipe(xmp, parameters);
}

/** XMP wins over `parameters`: it is the form with every field of ours. */
function chooseRecipe(xmp: string | null, parameters: string | null): ImageRecipe | null {
	return (
		(xmp === null ? null : parseRecipeXmp(xmp)) ??
		(parameters === null ? null : parseRecipeParameters(parameters))
	);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
	const chunk = new Uint8Array(12 + data.length);
	writeU32BE(chunk, 0, data.length);
	chunk.set(asciiBytes(type), 4);
	chunk.set(data, 8);
	writeU32BE(chunk, 8 + data.length, crc32([chunk.subarray(4, 8 + data.length)]));
	return chunk;
}

/** An uncompressed iTXt chunk with no language tag. */
function iTxtChunk(keyword: string, text: string): Uint8Array {
	return pngChunk(
		"iTXt",
		concatBytes([asciiBytes(keyword), new Uint8Array([0, 0, 0, 0, 0]), utf8Encoder.encode(text)]),
	);
}

/** `parameters` as tEXt, as A1111 writes it, or as iTXt when the text is not Latin-1. */
function parametersChunk(text: string): Uint8Array {
	const latin1 = encodeLatin1(text);
	if (!latin1) return iTxtChunk(PARAMETERS_KEYWORD, text);
	return pngChunk(
		"tEXt",
		concatBytes([asciiBytes(PARAMETERS_KEYWORD), new Uint8Array([0]), latin1]),
	);
}

/**
 * The PNG with the recipe's `parameters` and XMP chunks right after IHDR (and any earlier chunks
 * of those keywords left out); every other chunk, and anything after IEND, is copied as it was.
 * Null when the file is not a whole PNG.
 */
export function writePngRecipe(
	bytes: Uint8Array,
	recipe: ImageRecipe,
): Uint8Array<ArrayBuffer> | null {
	if (!startsWith(bytes, PNG_SIGNATURE)) return null;
	const { chunks, complete } = walkPng(bytes);
	const header = chunks[0];
	const last = chunks.at(-1);
	if (!complete || !last || header?.type !== "IHDR") return null;
	const kept = chunks.slice(1).filter((chunk) => {
		if (!isTextChunk(chunk.type)) return true;
		const keyword = readKeyword(chunk.data);
		return keyword !== PARAMETERS_KEYWORD && keyword !== XMP_KEYWORD;
	});
	return concatBytes([
		bytes.subarray(0, header.end),
		parametersChunk(formatRecipeParameters(recipe)),
		iTxtChunk(XMP_KEYWORD, formatRecipeXmp(recipe)),
		...kept.map((chunk) => bytes.subarray(chunk.start, chunk.end)),
		bytes.subarray(last.end),
	]);
}

// JPEG -------------------------------------------------------------------------------------------

type JpegSegment = { marker: number; start: number; end: number };

/**
 * The marker segments of a JPEG before its first scan, as far as they are whole, and where the
 * scan's segment starts: null when the walk did not get there (a truncated file, a segment running
 * past its end, bytes that stop making sense).
 */
function walkJpeg(bytes: Uint8Array): { segments: JpegSegment[]; scanStart: number | null } {
	const segments: JpegSegment[] = [];
	const stopped = { segments, scanStart: null };
	if (!startsWith(bytes, [0xff, 0xd8])) return stopped;
	let offset = 2;
	while (offset + 4 <= bytes.length) {
		if (bytes[offset] !== 0xff) return stopped;
		const marker = bytes[offset + 1] ?? 0;
		// Fill bytes: any number of 0xFF may come before a marker.
		if (marker === 0xff) {
			offset += 1;
			continue;
		}
		if (marker === 0xda) return { segments, scanStart: offset };
		if (marker === 0xd9) return stopped;
		if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
			offset += 2;
			continue;
		}
		const length = readU16BE(bytes, offset + 2);
		const end = offset + 2 + length;
		if (length < 2 || end > bytes.length) return stopped;
		segments.push({ marker, start: offset, end });
		offset = end;
	}
	return stopped;
}

const JPEG_XMP_HEADER_BYTES = asciiBytes(JPEG_XMP_HEADER);

function isJpegXmp(bytes: Uint8Array, segment: JpegSegment): boolean {
	return (
		segment.marker === 0xe1 && startsWith(bytes, [...JPEG_XMP_HEADER_BYTES], segment.start + 4)
	);
}

function isJpegExif(bytes: Uint8Array, segment: JpegSegment): boolean {
	return segment.marker === 0xe1 && readAscii(bytes, segment.start + 4, 6) === "Exif\0\0";
}

function readJpegRecipe(bytes: Uint8Array): ImageRecipe | null {
	for (const segment of walkJpeg(bytes).segments) {
		if (!isJpegXmp(bytes, segment)) continue;
		const packet = bytes.subarray(segment.start + 4 + JPEG_XMP_HEADER_BYTES.length, segment.end);
		const recipe = parseRecipeXmp(utf8Decoder.decode(packet));
		if (recipe) return recipe;
	}
	return null;
}

/**
 * The JPEG with the recipe as an XMP APP1 segment after SOI and the JFIF and Exif segments that
 * lead it (readers look for those first), replacing any XMP segment there was; every other
 * segment and the compressed data from the first scan on are copied as they were. Null when the
 * file is not a JPEG whose segments can be followed, or the packet would not fit a segment.
 */
export function writeJpegRecipe(
	bytes: Uint8Array,
	recipe: ImageRecipe,
): Uint8Array<ArrayBuffer> | null {
	const walked = walkJpeg(bytes);
	if (walked.scanStart === null) return null;
	const packet = utf8Encoder.encode(formatRecipeXmp(recipe));
	const length = 2 + JPEG_XMP_HEADER_BYTES.length + packet.length;
	if (length > 0xffff) return null;
	const segment = concatBytes([
		new Uint8Array([0xff, 0xe1, length >>> 8, length & 0xff]),
		JPEG_XMP_HEADER_BYTES,
		packet,
	]);
	const leading = walked.segments.findIndex(
		(candidate) => candidate.marker !== 0xe0 && !isJpegExif(bytes, candidate),
	);
	const insertAt = leading < 0 ? walked.segments.length : leading;
	const before = walked.segments.slice(0, insertAt);
	const after = walked.segments.slice(insertAt).filter((candidate) => !isJpegXmp(bytes, candidate));
	const copy = (part: JpegSegment) => bytes.subarray(part.start, part.end);
	return concatBytes([
		bytes.subarray(0, 2),
		...before.map(copy),
		segment,
		...after.map(copy),
		bytes.subarray(walked.scanStart),
	]);
}

// WebP -------------------------------------------------------------------------------------------

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

function readWebpRecipe(bytes: Uint8Array): ImageRecipe | null {
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

// Any of them ------------------------------------------------------------------------------------

/**
 * The recipe an image file carries (PNG, JPEG or WebP), or null: for a file without one, another
 * kind of file, or bytes that do not parse. It never throws, and reads a truncated file as far as
 * it goes.
 */
export function readRecipeFromImage(bytes: Uint8Array): ImageRecipe | null {
	try {
		switch (detectImageFormat(bytes)) {
			case "png":
				return readPngRecipe(bytes);
			case "jpeg":
				return readJpegRecipe(bytes);
			case "webp":
				return readWebpRecipe(bytes);
			default:
				return null;
		}
	} catch {
		// The readers check every length; this is the promise kept should one have been missed.
		return null;
	}
}

/**
 * The image with its recipe written in, its image data byte for byte as it was; null for a file
 * that is not a PNG, JPEG or WebP this can follow (the caller keeps the file as it is).
 */
export function writeRecipeToImage(
	bytes: Uint8Array,
	recipe: ImageRecipe,
): Uint8Array<ArrayBuffer> | null {
	switch (detectImageFormat(bytes)) {
		case "png":
			return writePngRecipe(bytes, recipe);
		case "jpeg":
			return writeJpegRecipe(bytes, recipe);
		case "webp":
			return writeWebpRecipe(bytes, recipe);
		default:
			return null;
	}
}
