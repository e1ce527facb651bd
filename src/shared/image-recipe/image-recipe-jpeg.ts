// The recipe in a JPEG file: its XMP APP1 segment, placed after the JFIF and Exif segments.

import type { ImageRecipe } from "./image-recipe";
import {
	asciiBytes,
	concatBytes,
	JPEG_XMP_HEADER,
	readAscii,
	readU16BE,
	startsWith,
	utf8Decoder,
	utf8Encoder,
} from "./image-recipe-bytes";
import { formatRecipeXmp, parseRecipeXmp } from "./image-recipe-xmp";

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

export function readJpegRecipe(bytes: Uint8Array): ImageRecipe | null {
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
