// What the API answers about an uploaded image, and the limit on unused uploads. No schema
// library here, so the generator may show these texts without loading one.
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS } from "./image-input";

/**
 * The most uploads one person keeps that no generation has used: enough for any real session at
 * the generator (each is removed a day after its upload unless used), few enough that nobody fills
 * the storage with them.
 */
export const MAX_UNUSED_UPLOADS = 50;

/**
 * How many uploads one person may send, decodable or not, in each fixed window: every attempt is
 * counted before its file is read, so a stream of damaged files costs its sender their limit,
 * not the server its decoding.
 */
export const UPLOAD_RATE_LIMITS = [
	{ windowSeconds: 60, limit: 20, period: "a minute" },
	{ windowSeconds: 60 * 60, limit: 200, period: "an hour" },
] as const;

/** The answers to a file that is not an image Atelier takes, each naming the field. */
export const UPLOAD_MESSAGES = {
	missing: "image is required: send one PNG, JPEG or WebP file in the multipart field image.",
	wrongType: "image must be a PNG, JPEG or WebP file.",
	unreadable: "image could not be read: the file is truncated or damaged.",
	tooLarge: `image must be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`,
	tooManyPixels: (width: number, height: number) =>
		`image must be at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels; this one is ${width} × ${height} pixels.`,
	tooManyRecent: (limit: number, period: string, waitSeconds: number) =>
		`You can upload at most ${limit} images in ${period}. Please wait ${waitSeconds} seconds before uploading more.`,
	tooManyUnused: `You have ${MAX_UNUSED_UPLOADS} uploaded images no generation has used yet. Use them, or wait until they are removed a day after their upload, before uploading more.`,
} as const;
