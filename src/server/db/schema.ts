import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { AspectRatio } from "../../shared/aspect-ratios";
import type { GenerationStatus } from "../../shared/generation-responses";
import type { Quality } from "../../shared/generation-settings";

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
	 * Every object stored for this image (original, display copy, thumbnail), in bytes. Missing on
	 * rows stored before sizes were recorded.
	 */
	bytes?: number;
};

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
	Date | null,
	Date | string | null | undefined,
	Date | string | null
>;

type GenerationsTable = {
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
	/**
	 * The model's price per image when the generation was made (numeric: the driver answers a
	 * string); null where the model had none, or before prices were recorded.
	 */
	price_per_image: ColumnType<string | null, number | null | undefined, number | null>;
	/**
	 * The bytes stored for the generation's images, the sum of their `bytes` (bigint: answered as a
	 * string); set when it completes, null before sizes were recorded.
	 */
	image_bytes: ColumnType<string | null, number | null | undefined, number | null>;
	attempts: Generated<number>;
	lease_owner: string | null;
	lease_until: NullableTimestamp;
	created_at: Timestamp;
	started_at: NullableTimestamp;
	completed_at: NullableTimestamp;
	updated_at: Timestamp;
};

/** The part of Better Auth's user table our queries read. */
type UserTable = {
	id: string;
	email: string;
	name: string;
};

type GenerationCountsTable = {
	user_id: string;
	total: ColumnType<string, never, never>;
};

type AddressRateLimitsTable = {
	key: string;
	count: number;
	window_started_at: Timestamp;
};

/** What history search and filters read: a narrow copy of each generation, kept by triggers. */
type GenerationSearchTable = {
	id: ColumnType<string, never, never>;
	user_id: ColumnType<string, never, never>;
	created_at: ColumnType<Date, never, never>;
	aspect_ratio: ColumnType<AspectRatio, never, never>;
	is_favorite: ColumnType<boolean, never, never>;
	/** The prompt, lowercased. */
	prompt_search: ColumnType<string, never, never>;
	model_id: ColumnType<string, never, never>;
};

/** One administrator deletion of another person's generation; outlives the generation. */
type GenerationAuditLogTable = {
	id: string;
	action: "delete";
	actor_id: string;
	actor_email: string;
	owner_id: string;
	owner_email: string;
	generation_id: string;
	prompt: string;
	created_at: Timestamp;
};

export type DatabaseSchema = {
	address_rate_limits: AddressRateLimitsTable;
	generations: GenerationsTable;
	generation_audit_log: GenerationAuditLogTable;
	generation_counts: GenerationCountsTable;
	generation_search: GenerationSearchTable;
	user: UserTable;
};

export type GenerationRow = Selectable<GenerationsTable>;
export type NewGenerationRow = Insertable<GenerationsTable>;
