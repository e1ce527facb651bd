import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { ThemeChoice } from "../../shared/account-settings";
import type { AspectRatio } from "../../shared/aspect-ratios";
import type { BoardKind, BoardQuery, BoardVisibility } from "../../shared/boards";
import type { GenerationStatus, ProgressStage } from "../../shared/generation-responses";
import type { Quality } from "../../shared/generation-settings";
import type { GenerationAction, UploadContentType } from "../../shared/image-input";
import type { ExpandFrame } from "../../shared/region-edit";

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

/** The part of Better Auth's user table our queries read. */
type UserTable = {
	id: string;
	email: string;
	name: string;
	emailVerified: boolean;
	createdAt: ColumnType<Date, never, never>;
};

/** Better Auth's sessions: the administrator's controls and taking an account back end them. */
type SessionTable = {
	id: string;
	userId: string;
	token: string;
};

/** Better Auth's sign-in methods: "credential" is the password, "google" a Google account. */
type AccountTable = {
	id: string;
	userId: string;
	providerId: string;
};

/** Who proved the administrator's address, and which address it was (decision 022). */
type AdministratorClaimsTable = {
	user_id: string;
	email: string;
	claimed_at: Timestamp;
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

/**
 * One row per person (kept by triggers, migration 0008): the People page's figures, and what the
 * administrator controls of them (null: the default).
 */
type PeopleTable = {
	user_id: ColumnType<string, never, never>;
	email: ColumnType<string, never, never>;
	signed_up_at: ColumnType<Date, never, never>;
	last_active_at: ColumnType<Date | null, never, never>;
	generations: ColumnType<string, never, never>;
	month_start: ColumnType<Date, never, never>;
	month_generations: ColumnType<string, never, never>;
	images: ColumnType<string, never, never>;
	image_bytes: ColumnType<string, never, never>;
	spend: ColumnType<string, never, never>;
	disabled_at: ColumnType<Date | null, never, Date | null>;
	max_active: ColumnType<number | null, never, number | null>;
	daily_limit: ColumnType<number | null, never, number | null>;
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

/** What the audit log records: a generation deleted, or an action on a person's account. */
export type AuditAction =
	| "delete"
	| "restore"
	| "purge"
	| "disable"
	| "enable"
	| "set-quota"
	| "delete-account"
	| "hide-share"
	| "revoke-share";

/**
 * One administrator action: a deletion of another person's generation (outlives the generation),
 * or an action on a person (no generation; an account's deletion has no owner reference). Every
 * entry outlives its owner's account: owner_id is cleared when the account is deleted, and the
 * e-mail addresses written with the entry stay.
 */
type GenerationAuditLogTable = {
	id: string;
	action: AuditAction;
	actor_id: string;
	actor_email: string;
	owner_id: string | null;
	owner_email: string;
	generation_id: string | null;
	prompt: string | null;
	details: ColumnType<string | null, string | null | undefined, string | null>;
	created_at: Timestamp;
};

/** An image a person uploaded to start from, private to them (uploads/). */
type UploadsTable = {
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

/** A personal API token: its hash, never the token itself (decision 018). */
type ApiTokensTable = {
	id: string;
	user_id: string;
	name: string;
	token_hash: string;
	scopes: string[];
	created_at: Timestamp;
	expires_at: NullableTimestamp;
	last_used_at: NullableTimestamp;
};

/** An Idempotency-Key of POST /api/generations and the generation it made, for 24 hours. */
type GenerationIdempotencyKeysTable = {
	user_id: string;
	key: string;
	request_hash: string;
	generation_id: string;
	created_at: Timestamp;
};

/** An account's webhook endpoint; the signing secret sealed with the server's secret. */
type WebhookEndpointsTable = {
	id: string;
	user_id: string;
	url: string;
	events: string[];
	sealed_secret: string;
	created_at: Timestamp;
};

/** One event sent (or to be sent) to one endpoint; `id` is its webhook-id. */
type WebhookDeliveriesTable = {
	id: string;
	endpoint_id: string;
	type: string;
	body: string;
	status: Generated<"pending" | "delivered" | "failed">;
	attempts: Generated<number>;
	last_status_code: number | null;
	last_error: string | null;
	last_response: string | null;
	created_at: Timestamp;
	last_attempt_at: NullableTimestamp;
	next_attempt_at: NullableTimestamp;
};

/** The attempt in flight to an endpoint, if any: its job, and until when its turn holds. */
type WebhookEndpointTurnsTable = {
	endpoint_id: string;
	holder: string;
	lease_until: Timestamp;
};

/** A browser's Web Push subscription: its push service endpoint and keys, for one session. */
/** A person's own style (prompts/styles-repository.ts). */
type PromptStylesTable = {
	id: string;
	user_id: string;
	name: string;
	prompt: string;
	negative_prompt: string | null;
	created_at: Timestamp;
	updated_at: Timestamp;
};

/** A person's last distinct prompts (prompts/recent-prompts-repository.ts). */
type RecentPromptsTable = {
	user_id: string;
	prompt: string;
	last_used_at: Timestamp;
};

type PushSubscriptionsTable = {
	id: string;
	user_id: string;
	session_id: string;
	endpoint: string;
	p256dh: string;
	auth: string;
	/** The browser and system, as its User-Agent named them ("Chrome on Android"). */
	label: string;
	/** The VAPID key it was made with: under another, its push service refuses every message. */
	vapid_public_key: string;
	created_at: Timestamp;
	last_notified_at: NullableTimestamp;
};

/** A person's own settings (GET and PATCH /api/account/settings); no row is every default. */
type AccountSettingsTable = {
	user_id: string;
	theme: Generated<ThemeChoice>;
	updated_at: Generated<Timestamp>;
};

/** A board (decision 032): a named label, or a saved search (`smart`, its `query`). */
type BoardsTable = {
	id: string;
	user_id: string;
	name: string;
	kind: BoardKind;
	visibility: ColumnType<BoardVisibility, BoardVisibility | undefined, BoardVisibility>;
	query: ColumnType<BoardQuery | null, string | null, string | null>;
	created_at: ColumnType<Date, Date | undefined, Date>;
	updated_at: ColumnType<Date, Date | undefined, Date>;
};

/** A generation on a board. */
type BoardGenerationsTable = {
	board_id: string;
	generation_id: string;
	added_at: ColumnType<Date, Date | undefined, never>;
};

/** A link to a generation or one of its images (sharing/): its token kept as a SHA-256 only. */
type SharesTable = {
	id: string;
	user_id: string;
	/** Null once the generation is deleted: the link has ended. */
	generation_id: string | null;
	/** One image of the generation; null for all of them. */
	image_index: number | null;
	token_hash: string;
	/** Null for a link that does not expire. */
	expires_at: NullableTimestamp;
	originals: boolean;
	show_prompt: boolean;
	created_at: Timestamp;
	revoked_at: NullableTimestamp;
	hidden_at: NullableTimestamp;
	views: ColumnType<number, number | undefined, number>;
	last_viewed_at: NullableTimestamp;
};

/** One rewrite asked of the operator's chat endpoint (Enhance), for the Usage page. */
type PromptEnhancementsTable = {
	id: string;
	user_id: string;
	created_at: ColumnType<Date, Date | undefined, never>;
};

/** A visitor's report about a shared link: the administrator's queue. */
type ShareReportsTable = {
	id: string;
	share_id: string;
	reason: string;
	created_at: Timestamp;
};

export type DatabaseSchema = {
	boards: BoardsTable;
	board_generations: BoardGenerationsTable;
	account: AccountTable;
	account_settings: AccountSettingsTable;
	address_rate_limits: AddressRateLimitsTable;
	administrator_claims: AdministratorClaimsTable;
	api_tokens: ApiTokensTable;
	generation_idempotency_keys: GenerationIdempotencyKeysTable;
	generations: GenerationsTable;
	generation_audit_log: GenerationAuditLogTable;
	generation_counts: GenerationCountsTable;
	generation_search: GenerationSearchTable;
	people: PeopleTable;
	prompt_enhancements: PromptEnhancementsTable;
	prompt_styles: PromptStylesTable;
	push_subscriptions: PushSubscriptionsTable;
	recent_prompts: RecentPromptsTable;
	session: SessionTable;
	share_reports: ShareReportsTable;
	shares: SharesTable;
	uploads: UploadsTable;
	user: UserTable;
	webhook_deliveries: WebhookDeliveriesTable;
	webhook_endpoint_turns: WebhookEndpointTurnsTable;
	webhook_endpoints: WebhookEndpointsTable;
};

export type GenerationRow = Selectable<GenerationsTable>;
export type BoardRow = Selectable<BoardsTable>;
export type NewGenerationRow = Insertable<GenerationsTable>;
