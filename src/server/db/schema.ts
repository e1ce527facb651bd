import type { Insertable, Selectable } from "kysely";
import type { BoardGenerationsTable, BoardsTable } from "./tables/board-tables";
import type {
	GenerationCountsTable,
	GenerationIdempotencyKeysTable,
	GenerationSearchTable,
	GenerationsTable,
	UploadsTable,
} from "./tables/generation-tables";
import type {
	AccountSettingsTable,
	AccountTable,
	AddressRateLimitsTable,
	AdministratorClaimsTable,
	ApiTokensTable,
	GenerationAuditLogTable,
	PeopleTable,
	PushSubscriptionsTable,
	SessionTable,
	UserTable,
} from "./tables/people-tables";
import type {
	PromptEnhancementsTable,
	PromptStylesTable,
	RecentPromptsTable,
} from "./tables/prompt-tables";
import type { ShareReportsTable, SharesTable } from "./tables/share-tables";
import type {
	WebhookDeliveriesTable,
	WebhookEndpointsTable,
	WebhookEndpointTurnsTable,
} from "./tables/webhook-tables";

export type { ReferenceImage, StoredImage } from "./tables/generation-tables";
export type { AuditAction } from "./tables/people-tables";

/**
 * The database as Kysely reads it: each table's columns are written beside their domain's in
 * tables/ (generations and uploads, people and their accounts, webhooks, prompts, boards and
 * shared links), and named here once.
 */
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
