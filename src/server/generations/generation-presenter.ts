import { GENERATION_MESSAGES } from "../../shared/generation-flow";
import type { GenerationModel } from "../../shared/generation-responses";
import type { Generation, PollResponse } from "../../shared/generations";
import type { GenerationRow } from "../db/schema";
import { settingsOf } from "./generation-input";
import type { GenerationWithOwner } from "./generation-repository";

/** How the server shows a generation to a browser: its JSON and the URLs of its images. */

export function pollingUrlFor(id: string): string {
	return `/api/generations/${id}/status`;
}

function imageUrl(key: string): string {
	return `/api/images/${key}`;
}

function modelOf(row: GenerationRow): GenerationModel {
	return { id: row.model_id, label: row.model_label };
}

/** `queuePosition`, from findQueuePosition, where the answer is about one generation. */
export function presentGeneration(
	row: GenerationWithOwner,
	queuePosition?: number | null,
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
		...(row.owner_email !== undefined ? { owner_email: row.owner_email } : {}),
		...(queuePosition !== undefined ? { queuePosition } : {}),
	};
}

export function presentPoll(row: GenerationRow, queuePosition: number | null): PollResponse {
	return {
		status: row.status,
		results: row.images.map((image) => imageUrl(image.key)),
		message:
			row.status === "failed" ? (row.error ?? GENERATION_MESSAGES.failed) : row.status_message,
		model: modelOf(row),
		settings: settingsOf(row),
		queuePosition,
	};
}
