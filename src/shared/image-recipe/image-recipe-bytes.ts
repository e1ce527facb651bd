// What the recipe readers and writers of each image container share: byte reading and writing,
// the keywords and limits, and which of two recipes found wins.

import { type ImageRecipe, MAX_RECIPE_TEXT, parseRecipeParameters } from "./image-recipe";
import { parseRecipeXmp } from "./image-recipe-xmp";

/** Largest metadata chunk or segment read for a recipe, in bytes; larger ones are skipped. */
export const MAX_METADATA_BYTES = 4 * MAX_RECIPE_TEXT;

/** The keyword A1111 and ComfyUI give their settings text in PNG. */
export const PARAMETERS_KEYWORD = "parameters";
/** The keyword of XMP in PNG's iTXt, from the XMP specification, part 3. */
export const XMP_KEYWORD = "XML:com.adobe.xmp";
/** What starts XMP's APP1 segment in JPEG, its terminating zero included. */
export const JPEG_XMP_HEADER = "http://ns.adobe.com/xap/1.0/\0";

export const utf8Decoder = new TextDecoder("utf-8");
export const utf8Encoder = new TextEncoder();

// Bytes ------------------------------------------------------------------------------------------

export function readAscii(bytes: Uint8Array, start: number, length: number): string {
	let text = "";
	for (let index = start; index < start + length && index < bytes.length; index++) {
		text += String.fromCharCode(bytes[index] ?? 0);
	}
	return text;
}

export function asciiBytes(text: string): Uint8Array {
	return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

export function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
	return prefix.every((byte, index) => bytes[at + index] === byte);
}

export function readU32BE(bytes: Uint8Array, at: number): number {
	return (
		(((bytes[at] ?? 0) << 24) |
			((bytes[at + 1] ?? 0) << 16) |
			((bytes[at + 2] ?? 0) << 8) |
			(bytes[at + 3] ?? 0)) >>>
		0
	);
}

export function readU32LE(bytes: Uint8Array, at: number): number {
	return (
		((bytes[at] ?? 0) |
			((bytes[at + 1] ?? 0) << 8) |
			((bytes[at + 2] ?? 0) << 16) |
			((bytes[at + 3] ?? 0) << 24)) >>>
		0
	);
}

export function readU16BE(bytes: Uint8Array, at: number): number {
	return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

export function readU16LE(bytes: Uint8Array, at: number): number {
	return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

export function writeU32BE(bytes: Uint8Array, at: number, value: number): void {
	bytes[at] = value >>> 24;
	bytes[at + 1] = (value >>> 16) & 0xff;
	bytes[at + 2] = (value >>> 8) & 0xff;
	bytes[at + 3] = value & 0xff;
}

export function writeU32LE(bytes: Uint8Array, at: number, value: number): void {
	bytes[at] = value & 0xff;
	bytes[at + 1] = (value >>> 8) & 0xff;
	bytes[at + 2] = (value >>> 16) & 0xff;
	bytes[at + 3] = value >>> 24;
}

export function writeU24LE(bytes: Uint8Array, at: number, value: number): void {
	bytes[at] = value & 0xff;
	bytes[at + 1] = (value >>> 8) & 0xff;
	bytes[at + 2] = (value >>> 16) & 0xff;
}

/** The parts joined into one new array: one copy of each. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
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
export function decodeLatin1(bytes: Uint8Array): string {
	let text = "";
	for (let start = 0; start < bytes.length; start += 8192) {
		text += String.fromCharCode(...bytes.subarray(start, start + 8192));
	}
	return text;
}

export function encodeLatin1(text: string): Uint8Array | null {
	const bytes = new Uint8Array(text.length);
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code > 0xff) return null;
		bytes[index] = code;
	}
	return bytes;
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** XMP wins over `parameters`: it is the form with every field of ours. */
export function chooseRecipe(xmp: string | null, parameters: string | null): ImageRecipe | null {
	return (
		(xmp === null ? null : parseRecipeXmp(xmp)) ??
		(parameters === null ? null : parseRecipeParameters(parameters))
	);
}

export type ImageFormat = "png" | "jpeg" | "webp";

/** The container of an image, from its first bytes; null for anything else. */
export function detectImageFormat(bytes: Uint8Array): ImageFormat | null {
	if (startsWith(bytes, PNG_SIGNATURE)) return "png";
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
	if (readAscii(bytes, 0, 4) === "RIFF" && readAscii(bytes, 8, 4) === "WEBP") return "webp";
	return null;
}
