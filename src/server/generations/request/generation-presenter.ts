import { createHash } from "node:crypto";
import { GENERATION_MESSAGES } from "../../../shared/generations/generation-flow";
import type {
	ActiveGeneration,
	GenerationModel,
	GenerationProgress,
} from "../../../shared/generations/generation-responses";
import type { Generation, PollResponse } from "../../../shared/generations/generations";
import { progressReport } from "../../../shared/generations/progress";
import type { GenerationRegion } from "../../../shared/generations/region-edit";
import type { GenerationParent } from "../../../shared/image-input/image-input";
import type { GenerationRow } from "../../db/schema";
import { settingsOf } from "../generation-input";
import type { PresentableGeneration } from "../generation-repository";
import { imageUrl } from "../image-urls";

/** How the server shows a generation to a browser: its JSON and the URLs of its images. */

export function pollingUrlFor(id: string): string {
	return `/api/generations/${id}/status`;
}

export { imageUrl };

function modelOf(row: GenerationRow): GenerationModel {
	return { id: row.model_id, label: row.model_label };
}

/**
 * What is known of an unfinished generation (null once finished). A queued row is in Atelier's
 * queue, at `queuePosition` (how many queued generations start before it in the fair order:
 * findQueuePositions in queue-order.ts, looked up by the caller, once for a whole list); a running
 * one is where its run last reported, `starting` until the provider says more. The provider's own
 * queue position shows as stage `queued` with that position.
 */
export function presentProgress(
	row: GenerationRow,
	queuePosition: number | null,
): GenerationProgress | null {
	if (row.status === "completed" || row.status === "failed") return null;
	if (row.status === "queued") return progressReport("queued", { position: queuePosition });
	const stage = row.progress_stage ?? "starting";
	return {
		stage,
		position: stage === "queued" ? row.progress_position : null,
		percent: row.progress_percent,
		step: row.progress_step,
		steps: row.progress_steps,
		previewUrl: row.preview_key ? imageUrl(row.preview_key) : null,
	};
}

/**
 * What a generation was made from: an image of another generation (kept, with `exists: false`,
 * once that one is deleted), an uploaded file, or nothing.
 */
function parentOf(row: PresentableGeneration): GenerationParent | null {
	if (row.from_upload) {
		const action = row.action === "edit-region" || row.action === "expand" ? row.action : "edit";
		// Its upload named while the server holds it: Use settings reopens the editor on it.
		const uploadId = row.parent_upload_kept ? row.parent_upload_id : null;
		return { action, upload: true, ...(uploadId ? { uploadId } : {}) };
	}
	if (row.parent_generation_id === null || row.action === null) return null;
	return {
		generationId: row.parent_generation_id,
		imageIndex: row.parent_image_index ?? 0,
		action: row.action,
		exists: row.parent_exists,
		...(row.parent_in_trash ? { inTrash: true } : {}),
	};
}

/** The URL of a region edit's mask, as its owner downloads it. */
export function maskUrlFor(id: string): string {
	return `/api/generations/${id}/mask`;
}

/** The URL of a generation's own copy of the image it started from (the preview's "before"). */
export function sourceUrlFor(id: string): string {
	return `/api/generations/${id}/source`;
}

/** An `edit-region`'s or `expand`'s source, mask and frame; nothing for any other generation. */
function regionOf(row: PresentableGeneration): { region?: GenerationRegion } {
	if (row.action !== "edit-region" && row.action !== "expand") return {};
	if (!row.reference_image) return {};
	return {
		region: {
			sourceUrl: sourceUrlFor(row.id),
			maskUrl: row.region_mask ? maskUrlFor(row.id) : null,
			frame: row.expand_frame,
		},
	};
}

/** `queuePosition` as for presentProgress: null when the generation is not queued. */
export function presentGeneration(
	row: PresentableGeneration,
	queuePosition: number | null,
): Generation {
	return {
		id: row.id,
		prompt: row.prompt,
		aspect_ratio: row.aspect_ratio,
		status: row.status,
		error: row.error,
		images: row.images.map((image) => ({
			url: imageUrl(image.key),
			width: image.width,
			height: image.height,
			...(image.displayKey && image.displayWidth && image.displayHeight
				? {
						displayUrl: imageUrl(image.displayKey),
						displayWidth: image.displayWidth,
						displayHeight: image.displayHeight,
					}
				: {}),
			thumbnailUrl: imageUrl(image.thumbnailKey),
			thumbnailWidth: image.thumbnailWidth,
			thumbnailHeight: image.thumbnailHeight,
		})),
		created_at: row.created_at.toISOString(),
		completed_at: row.completed_at ? row.completed_at.toISOString() : null,
		api_id: row.api_id,
		polling_url: row.polling_url,
		user_id: row.user_id,
		is_favorite: row.is_favorite,
		model: modelOf(row),
		settings: settingsOf(row),
		progress: presentProgress(row, queuePosition),
		parent: parentOf(row),
		childrenCount: row.children_count,
		...regionOf(row),
		style:
			row.style_id !== null && row.style_name !== null
				? { id: row.style_id, name: row.style_name }
				: null,
		batchId: row.batch_id,
		...(row.original_prompt !== null ? { originalPrompt: row.original_prompt } : {}),
		...(row.owner_email !== undefined ? { owner_email: row.owner_email } : {}),
		...(row.deleted_at ? { deletedAt: row.deleted_at.toISOString() } : {}),
	};
}

/**
 * A short digest of everything an answer says: it changes whenever any of it does. A long poll's
 * `after` names the answer its caller last saw, so what changed since is answered at once.
 */
export function versionOf(answer: unknown): string {
	return createHash("sha256").update(JSON.stringify(answer)).digest("base64url").slice(0, 16);
}

export function presentPoll(row: GenerationRow, queuePosition: number | null): PollResponse {
	const answer = {
		status: row.status,
		results: row.images.map((image) => imageUrl(image.key)),
		message:
			row.status === "failed" ? (row.error ?? GENERATION_MESSAGES.failed) : row.status_message,
		progress: presentProgress(row, queuePosition),
		model: modelOf(row),
		settings: settingsOf(row),
	};
	return { ...answer, version: versionOf(answer) };
}

/** One of the person's unfinished generations, as `GET /api/generations/active` lists it. */
export function presentActiveGeneration(
	row: GenerationRow,
	queuePosition: number | null,
): ActiveGeneration {
	return { id: row.id, status: row.status, progress: presentProgress(row, queuePosition) };
}
