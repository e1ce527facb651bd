import type { ColumnType, Generated } from "kysely";
import type { AspectRatio } from "../../../shared/generations/aspect-ratios";
import type {
	GenerationStatus,
	ProgressStage,
} from "../../../shared/generations/generation-responses";
import type { Quality } from "../../../shared/generations/generation-settings";
import type { ExpandFrame } from "../../../shared/generations/region-edit";
import type { GenerationAction, UploadContentType } from "../../../shared/image-input/image-input";
import type { NullableTimestamp, Timestamp } from "./timestamps";

/** One stored image of a generation: storage keys, never provider URLs. */
export type StoredImage = {
	/** The original, as the provider made it. */
	key: string;
	contentType: string;
	width: number;
	height: number;
	/**
	 * The WebP display copy, long side at most 1600 px. Missing on rows stored before display
	 * copies were made: the original stands in.
	 */
	displayKey?: string;
	displayWidth?: number;
	displayHeight?: number;
	thumbnailKey: string;
	thumbnailWidth: number;
	thumbnailHeight: number;
	/**
	 * Bytes of the original, display copy and thumbnail together. Missing on rows stored before
	 * sizes were recorded.
	 */
	bytes?: number;
};

/** A generation's own copy of the image it starts from: its key in storage and what it is. */
export type ReferenceImage = {
	key: string;
	contentType: UploadContentType;
	width: number;
	height: number;
};

export type GenerationsTable = {
	id: string;
	user_id: string;
	prompt: string;
	aspect_ratio: AspectRatio;
	status: GenerationStatus;
	provider: string;
	api_id: string | null;
	polling_url: string | null;
	images: ColumnType<StoredImage[], string | undefined, string>;
	error: string | null;
	status_message: ColumnType<string | null, string | null | undefined, string | null>;
	/** The owner's star. */
	is_favorite: ColumnType<boolean, boolean | undefined, boolean>;
	/** The model's id in the catalogue, and its label when the generation was made. */
	model_id: string;
	model_label: string;
	/** 1 to 4. */
	image_count: ColumnType<number, number | undefined, number>;
	/** The seed used (bigint: PostgreSQL answers it as a string), or null where the model has none. */
	seed: ColumnType<string | null, number | null | undefined, number | null>;
	negative_prompt: ColumnType<string | null, string | null | undefined, string | null>;
	quality: ColumnType<Quality | null, Quality | null | undefined, Quality | null>;
	/** The model's price per image in US dollars when the generation was made (numeric: a string); 0 without a price. */
	price_per_image: ColumnType<string | null, number | null | undefined, number | null>;
	/** Bytes of everything stored for its images (originals, display copies, thumbnails); null when unknown. */
	stored_bytes: ColumnType<string | null, number | null | undefined, number | null>;
	/**
	 * What the run reports while it works (null before a run claims it, and once finished): the
	 * stage (`queued` here meaning waiting in the provider's own queue), the provider's percent of
	 * the whole generation, its step of steps, its queue position, the latest preview's key.
	 */
	progress_stage: ColumnType<
		ProgressStage | null,
		ProgressStage | null | undefined,
		ProgressStage | null
	>;
	progress_percent: ColumnType<number | null, number | null | undefined, number | null>;
	progress_step: ColumnType<number | null, number | null | undefined, number | null>;
	progress_steps: ColumnType<number | null, number | null | undefined, number | null>;
	progress_position: ColumnType<number | null, number | null | undefined, number | null>;
	preview_key: ColumnType<string | null, string | null | undefined, string | null>;
	/** What it does with an image (vary, upscale, edit); null when made from the prompt alone. */
	action: ColumnType<
		GenerationAction | null,
		GenerationAction | null | undefined,
		GenerationAction | null
	>;
	/** How far a reference's results may move from it, 0 to 1 (vary and edit). */
	reference_strength: ColumnType<number | null, number | null | undefined, number | null>;
	/** 2 or 4 for an upscale. */
	upscale_factor: ColumnType<number | null, number | null | undefined, number | null>;
	/** The generation's own copy of the image it starts from, in its folder. */
	reference_image: ColumnType<ReferenceImage | null, string | null | undefined, string | null>;
	/** The generation whose image it was made from: an id kept after that one is deleted. */
	parent_generation_id: ColumnType<string | null, string | null | undefined, string | null>;
	parent_image_index: ColumnType<number | null, number | null | undefined, number | null>;
	/** An edit of an uploaded file (it has no parent generation). */
	from_upload: ColumnType<boolean, boolean | undefined, boolean>;
	/** Which upload: an id kept after that upload is removed; null before migration 0038. */
	parent_upload_id: ColumnType<string | null, string | null | undefined, string | null>;
	/** An `edit-region`'s mask, in the one convention (images/region-mask.ts), in its folder. */
	region_mask: ColumnType<ReferenceImage | null, string | null | undefined, string | null>;
	/** Where an `expand`'s source sits in its new frame. */
	expand_frame: ColumnType<ExpandFrame | null, string | null | undefined, string | null>;
	/** The style it was made with: its id and name then (kept after the style is gone). */
	style_id: ColumnType<string | null, string | null | undefined, string | null>;
	style_name: ColumnType<string | null, string | null | undefined, string | null>;
	/** What the style made of the prompt and negative prompt: what the provider is asked for. */
	styled_prompt: ColumnType<string | null, string | null | undefined, string | null>;
	styled_negative_prompt: ColumnType<string | null, string | null | undefined, string | null>;
	/** The batch it was made in (several generations of one submission); null when made alone. */
	batch_id: ColumnType<string | null, string | null | undefined, string | null>;
	/** Made from an enhanced prompt: the prompt as the person had written it (decision 039). */
	original_prompt: ColumnType<string | null, string | null | undefined, string | null>;
	attempts: Generated<number>;
	lease_owner: string | null;
	lease_until: NullableTimestamp;
	/**
	 * When the queue's wait this generation joined began (set by a trigger as it is inserted;
	 * decision 020); null for generations finished before it was recorded.
	 */
	wait_began_at: ColumnType<Date | null, never, never>;
	created_at: Timestamp;
	started_at: NullableTimestamp;
	completed_at: NullableTimestamp;
	updated_at: Timestamp;
	/** When it was moved to the Trash (null: not in the Trash), and by whom (null once that account is gone). */
	deleted_at: NullableTimestamp;
	deleted_by: ColumnType<string | null, string | null | undefined, string | null>;
};

export type GenerationCountsTable = {
	user_id: string;
	total: ColumnType<string, never, never>;
};

/** What history search and filters read: a narrow copy of each generation, kept by triggers. */
export type GenerationSearchTable = {
	id: ColumnType<string, never, never>;
	user_id: ColumnType<string, never, never>;
	created_at: ColumnType<Date, never, never>;
	aspect_ratio: ColumnType<AspectRatio, never, never>;
	is_favorite: ColumnType<boolean, never, never>;
	/** The prompt, lowercased. */
	prompt_search: ColumnType<string, never, never>;
	model_id: ColumnType<string, never, never>;
};

/** An image a person uploaded to start from, private to them (uploads/). */
export type UploadsTable = {
	id: string;
	user_id: string;
	storage_key: string;
	content_type: UploadContentType;
	width: number;
	height: number;
	bytes: number;
	created_at: Timestamp;
	/** When a generation first used it; an upload never used is removed after a day. */
	used_at: NullableTimestamp;
};

/** An Idempotency-Key of POST /api/generations and the generation it made, for 24 hours. */
export type GenerationIdempotencyKeysTable = {
	user_id: string;
	key: string;
	request_hash: string;
	generation_id: string;
	created_at: Timestamp;
};
