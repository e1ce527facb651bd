import type { Kysely } from "kysely";
import type { UploadResponse } from "../../shared/image-input/image-input";
import {
	MAX_UNUSED_UPLOADS,
	UPLOAD_MESSAGES,
	UPLOAD_RATE_LIMITS,
} from "../../shared/image-input/upload-rules";
import { countInWindow } from "../db/rate-limit-windows";
import type { DatabaseSchema } from "../db/schema";
import { AppError } from "../errors/app-error";
import type { Logger } from "../logging/logger";
import type { Storage } from "../storage/storage";
import { prepareUploadImage } from "./prepare-upload-image";
import { countUnusedUploads, insertUploadWithinLimit } from "./upload-repository";
import { newUploadId, uploadKey } from "./upload-storage";

export type UploadDeps = {
	db: Kysely<DatabaseSchema>;
	storage: Storage;
	logger: Logger;
};

/**
 * Counts an upload against the person's rate limits (UPLOAD_RATE_LIMITS, in the database, so
 * across every server process) and refuses at once (429) one over a limit or one who keeps the
 * most unused uploads, before their file is read: an upload that fails to decode counts too.
 */
export async function assertMayUpload(db: Kysely<DatabaseSchema>, userId: string): Promise<void> {
	let refusal: AppError | undefined;
	for (const { windowSeconds, limit } of UPLOAD_RATE_LIMITS) {
		const { count, resetSeconds } = await countInWindow(
			db,
			`upload:${userId}:${windowSeconds}`,
			windowSeconds,
		);
		const waitSeconds = Math.max(1, resetSeconds);
		// Every window counts the attempt; the answer names the one that frees up last.
		if (count > limit && (refusal?.retryAfterSeconds ?? 0) < waitSeconds) {
			refusal = new AppError(
				"RATE_LIMITED",
				UPLOAD_MESSAGES.tooManyRecent(limit, windowSeconds, waitSeconds),
				{ retryAfterSeconds: waitSeconds },
			);
		}
	}
	if (refusal) throw refusal;
	if ((await countUnusedUploads(db, userId)) >= MAX_UNUSED_UPLOADS) {
		throw new AppError("RATE_LIMITED", UPLOAD_MESSAGES.tooManyUnused);
	}
}

/**
 * Checks an uploaded file, stores its rewritten image privately under the person's folder and
 * records it. The object is written first and the row after; when the row cannot be written (an
 * error, or the limit reached by uploads sent at the same time) the object is removed again, so
 * no row names a missing object and no object is left without a row (one whose removal failed
 * is swept later, see remove-uploads.ts).
 */
export async function storeUpload(
	deps: UploadDeps,
	userId: string,
	file: Uint8Array,
): Promise<UploadResponse> {
	const image = await prepareUploadImage(file);
	const id = newUploadId();
	const key = uploadKey(userId, id, image.contentType);
	await deps.storage.put(key, image.data, image.contentType);
	const row = await insertUploadWithinLimit(
		deps.db,
		{
			id,
			user_id: userId,
			storage_key: key,
			content_type: image.contentType,
			width: image.width,
			height: image.height,
			bytes: image.data.byteLength,
		},
		MAX_UNUSED_UPLOADS,
	).catch(async (error: unknown) => {
		await removeObject(deps, key);
		throw error;
	});
	if (!row) {
		await removeObject(deps, key);
		throw new AppError("RATE_LIMITED", UPLOAD_MESSAGES.tooManyUnused);
	}
	return {
		uploadId: row.id,
		width: row.width,
		height: row.height,
		contentType: row.content_type,
	};
}

async function removeObject(deps: UploadDeps, key: string): Promise<void> {
	await deps.storage.delete([key]).catch((error: unknown) => {
		deps.logger.warn("removing an unrecorded upload failed; the sweep will", { key, error });
	});
}
