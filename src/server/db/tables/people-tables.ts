import type { ColumnType, Generated } from "kysely";
import type { LanguageChoice, ThemeChoice } from "../../../shared/account/account-settings";
import type { Language } from "../../../shared/i18n/languages";
import type { NullableTimestamp, Timestamp } from "./timestamps";

/** The part of Better Auth's user table our queries read. */
export type UserTable = {
	id: string;
	email: string;
	name: string;
	emailVerified: boolean;
	createdAt: ColumnType<Date, never, never>;
};

/** Better Auth's sessions: the administrator's controls and taking an account back end them. */
export type SessionTable = {
	id: string;
	userId: string;
	token: string;
};

/** Better Auth's sign-in methods: "credential" is the password, "google" a Google account. */
export type AccountTable = {
	id: string;
	userId: string;
	providerId: string;
};

/** Who proved the administrator's address, and which address it was (decision 022). */
export type AdministratorClaimsTable = {
	user_id: string;
	email: string;
	claimed_at: Timestamp;
};

export type AddressRateLimitsTable = {
	key: string;
	count: number;
	window_started_at: Timestamp;
};

/**
 * One row per person (kept by triggers, migration 0008): the People page's figures, and what the
 * administrator controls of them (null: the default).
 */
export type PeopleTable = {
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
export type GenerationAuditLogTable = {
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

/** A personal API token: its hash, never the token itself (decision 018). */
export type ApiTokensTable = {
	id: string;
	user_id: string;
	name: string;
	token_hash: string;
	scopes: string[];
	created_at: Timestamp;
	expires_at: NullableTimestamp;
	last_used_at: NullableTimestamp;
};

/** A person's own settings (GET and PATCH /api/account/settings); no row is every default. */
export type AccountSettingsTable = {
	user_id: string;
	theme: Generated<ThemeChoice>;
	language: Generated<LanguageChoice>;
	updated_at: Generated<Timestamp>;
};

/** A browser's Web Push subscription: its push service endpoint and keys, for one session. */
export type PushSubscriptionsTable = {
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
	/**
	 * The language of the browser that turned it on (its choice, else its Accept-Language), which
	 * its pushes are written in while the account follows the browser's language; null for one
	 * made before it was kept (English then).
	 */
	language: Language | null;
	created_at: Timestamp;
	last_notified_at: NullableTimestamp;
};
