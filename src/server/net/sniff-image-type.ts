const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

/**
 * The image type of some bytes from their magic numbers (PNG, JPEG, WebP, GIF, AVIF), or undefined
 * when they are not one of those. A server's Content-Type says what it claims, this says what it is.
 */
export function sniffImageType(data: Uint8Array): string | undefined {
	if (startsWith(data, PNG_SIGNATURE)) return "image/png";
	if (startsWith(data, JPEG_SIGNATURE)) return "image/jpeg";
	if (readAscii(data, 0, 6) === "GIF87a" || readAscii(data, 0, 6) === "GIF89a") return "image/gif";
	if (readAscii(data, 0, 4) === "RIFF" && readAscii(data, 8, 4) === "WEBP") return "image/webp";
	if (isAvif(data)) return "image/avif";
	return undefined;
}

// AVIF is an ISO-BMFF file whose leading `ftyp` box names "avif" (still) or "avis" (sequence) as
// its major or a compatible brand; HEIC shares the container, so the brand is what tells them apart.
function isAvif(data: Uint8Array): boolean {
	if (data.length < 16 || readAscii(data, 4, 4) !== "ftyp") return false;
	const boxSize = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0);
	const end = Math.min(boxSize, data.length);
	const brands = [readAscii(data, 8, 4)];
	for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(readAscii(data, offset, 4));
	return brands.some((brand) => brand === "avif" || brand === "avis");
}

function startsWith(data: Uint8Array, signature: readonly number[]): boolean {
	return data.length >= signature.length && signature.every((byte, index) => data[index] === byte);
}

function readAscii(data: Uint8Array, offset: number, length: number): string {
	if (data.length < offset + length) return "";
	return String.fromCharCode(...data.subarray(offset, offset + length));
}
