import sharp from "sharp";
import { MAX_UPLOAD_PIXELS, type UploadContentType } from "../../shared/image-input/image-input";
import { inputImageType, isInputContentType } from "../../shared/image-input/image-types";
import { UPLOAD_MESSAGES } from "../../shared/image-input/upload-rules";
import { AppError } from "../errors/app-error";
import { sniffImageType } from "../net/sniff-image-type";

/** An uploaded file once checked and rewritten: what is stored, never the bytes that came in. */
export type PreparedImage = {
	data: Uint8Array;
	contentType: UploadContentType;
	width: number;
	height: number;
};

/**
 * Checks an uploaded file and rewrites it for storage. The type is told by the bytes, never by
 * the name or the declared type; the size in pixels is read from the header before anything is
 * decoded, so a decompression bomb (a small file that unpacks into gigabytes) is refused unread;
 * then the image is decoded, turned upright by its EXIF orientation and encoded again in its own
 * format, which leaves behind every piece of metadata (EXIF with its GPS position, XMP, text
 * chunks). A truncated or damaged file fails the decoding: libvips is told to fail on warnings.
 */
export async function prepareUploadImage(file: Uint8Array): Promise<PreparedImage> {
	const contentType = sniffUploadType(file);
	const { width, height } = await readHeaderSize(file, contentType);
	if (width * height > MAX_UPLOAD_PIXELS) {
		throw new AppError("VALIDATION_ERROR", UPLOAD_MESSAGES.tooManyPixels(width, height));
	}
	return rewriteImage(file, contentType);
}

function sniffUploadType(file: Uint8Array): UploadContentType {
	const sniffed = sniffImageType(file);
	if (sniffed && isInputContentType(sniffed)) return sniffed;
	throw new AppError("VALIDATION_ERROR", UPLOAD_MESSAGES.wrongType);
}

/** Width and height as the file's header states them; libvips reads no pixels for this. */
async function readHeaderSize(
	file: Uint8Array,
	contentType: UploadContentType,
): Promise<{ width: number; height: number }> {
	// sharp's own pixel limit would refuse a large header here with its own words; ours follows.
	const metadata = await sharp(file, { limitInputPixels: false })
		.metadata()
		.catch(() => undefined);
	if (!metadata || metadata.format !== inputImageType(contentType).format) {
		throw new AppError("VALIDATION_ERROR", UPLOAD_MESSAGES.unreadable);
	}
	const { width, height } = metadata;
	if (!(width > 0 && height > 0))
		throw new AppError("VALIDATION_ERROR", UPLOAD_MESSAGES.unreadable);
	return { width, height };
}

async function rewriteImage(
	file: Uint8Array,
	contentType: UploadContentType,
): Promise<PreparedImage> {
	// The limit again, in libvips itself, in case a header and the data disagree.
	const upright = sharp(file, {
		limitInputPixels: MAX_UPLOAD_PIXELS,
		failOn: "warning",
	}).autoOrient();
	const { format } = inputImageType(contentType);
	const encoded = format === "png" ? upright.png() : upright.toFormat(format, { quality: 92 });
	const output = await encoded.toBuffer({ resolveWithObject: true }).catch(() => {
		throw new AppError("VALIDATION_ERROR", UPLOAD_MESSAGES.unreadable);
	});
	return {
		data: new Uint8Array(output.data),
		contentType,
		width: output.info.width,
		height: output.info.height,
	};
}
