// The recipe in a PNG file: its tEXt or iTXt `parameters` and its XMP iTXt chunk.

import { formatRecipeParameters, type ImageRecipe } from "./image-recipe";
import {
	asciiBytes,
	chooseRecipe,
	concatBytes,
	decodeLatin1,
	encodeLatin1,
	MAX_METADATA_BYTES,
	PARAMETERS_KEYWORD,
	PNG_SIGNATURE,
	readAscii,
	readU32BE,
	startsWith,
	utf8Decoder,
	utf8Encoder,
	writeU32BE,
	XMP_KEYWORD,
} from "./image-recipe-bytes";
import { formatRecipeXmp } from "./image-recipe-xmp";

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

export function readPngRecipe(bytes: Uint8Array): ImageRecipe | null {
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
