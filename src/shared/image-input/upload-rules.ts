// What the API answers about an uploaded image, and the limit on unused uploads. No schema
// library here, so the generator may show these texts without loading one.
import {
	sharedUploadMissing,
	sharedUploadTooLarge,
	sharedUploadTooManyPerHour,
	sharedUploadTooManyPerMinute,
	sharedUploadTooManyPixels,
	sharedUploadTooManyUnused,
	sharedUploadUnreadable,
	sharedUploadWrongType,
} from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";
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

type UploadMessage = (options?: MessageOptions) => string;

/**
 * The answers to a file that is not an image Atelier takes, each naming the field, and to an
 * upload over a limit: catalogue messages, written in the language asked (the request's).
 * Figures are passed as text where the English has no thousands separator to gain.
 */
export const UPLOAD_MESSAGES = {
	missing: sharedUploadMissing,
	wrongType: sharedUploadWrongType,
	unreadable: sharedUploadUnreadable,
	tooLarge: (options?: MessageOptions) =>
		sharedUploadTooLarge({ megabytes: MAX_UPLOAD_BYTES / 1024 / 1024 }, options),
	tooManyPixels:
		(width: number, height: number): UploadMessage =>
		(options) =>
			sharedUploadTooManyPixels(
				{
					megapixels: MAX_UPLOAD_PIXELS / 1_000_000,
					width: String(width),
					height: String(height),
				},
				options,
			),
	/** Over the limit of a window of UPLOAD_RATE_LIMITS (a minute's or an hour's). */
	tooManyRecent:
		(limit: number, windowSeconds: number, waitSeconds: number): UploadMessage =>
		(options) =>
			(windowSeconds <= 60 ? sharedUploadTooManyPerMinute : sharedUploadTooManyPerHour)(
				{ limit, seconds: String(waitSeconds) },
				options,
			),
	tooManyUnused: (options?: MessageOptions) =>
		sharedUploadTooManyUnused({ count: MAX_UNUSED_UPLOADS }, options),
} as const;
