import sharp from "sharp";
import { detectImageFormat } from "../../shared/image-recipe/image-recipe-files";

/**
 * The compressed picture of a PNG (its IDAT chunks), JPEG (everything from its first scan on) or
 * WebP (its VP8, VP8L and ALPH chunks): what writing metadata into the file must leave byte for
 * byte as it was. Written apart from the code under test, simply, for files made by tests.
 */
export function compressedImageData(bytes: Uint8Array): Buffer {
	const buffer = Buffer.from(bytes);
	const parts: Buffer[] = [];
	switch (detectImageFormat(bytes)) {
		case "png":
			for (let offset = 8; offset < buffer.length; ) {
				const length = buffer.readUInt32BE(offset);
				if (buffer.toString("latin1", offset + 4, offset + 8) === "IDAT") {
					parts.push(buffer.subarray(offset + 8, offset + 8 + length));
				}
				offset += 12 + length;
			}
			break;
		case "jpeg": {
			let offset = 2;
			while (buffer[offset + 1] !== 0xda) offset += 2 + buffer.readUInt16BE(offset + 2);
			parts.push(buffer.subarray(offset));
			break;
		}
		case "webp":
			for (let offset = 12; offset < buffer.length; ) {
				const size = buffer.readUInt32LE(offset + 4);
				if (["VP8 ", "VP8L", "ALPH"].includes(buffer.toString("latin1", offset, offset + 4))) {
					parts.push(buffer.subarray(offset + 8, offset + 8 + size));
				}
				offset += 8 + size + (size % 2);
			}
			break;
		default:
			throw new Error("not a PNG, JPEG or WebP");
	}
	if (parts.length === 0) throw new Error("no image data found");
	return Buffer.concat(parts);
}

/**
 * How unlike two images are: the mean absolute difference per channel (0 to 255), compared at
 * 64 x 64 without alpha, so images of different sizes can be compared by what they show.
 */
export async function measureImageDifference(a: Uint8Array, b: Uint8Array): Promise<number> {
	const [pixelsA, pixelsB] = await Promise.all(
		[a, b].map((data) =>
			sharp(data).resize(64, 64, { fit: "fill" }).removeAlpha().raw().toBuffer(),
		),
	);
	if (!pixelsA || !pixelsB) throw new Error("decode failed");
	let total = 0;
	for (let index = 0; index < pixelsA.length; index++) {
		total += Math.abs((pixelsA[index] ?? 0) - (pixelsB[index] ?? 0));
	}
	return total / pixelsA.length;
}
