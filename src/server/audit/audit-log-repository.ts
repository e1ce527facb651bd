import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { isAfterCursor, type PageCursor } from "../db/cursor-page";
import type { AuditAction, DatabaseSchema } from "../db/schema";

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

type AuditedDeletion = {
	generationId: string;
	prompt: string;
	ownerId: string;
	ownerEmail: string;
};

/** What the audit log records of another person's generation: deleted, restored, purged. */
export type GenerationAction = "delete" | "restore" | "purge";

/**
 * Records the administrator's deletions of other people's generations (in the deleting
 * transaction): `delete` (to the Trash, or for good), `restore` from it, and `purge`, when a
 * generation the administrator sent to someone's Trash is removed for good after its days there.
 */
export async function insertDeletionEntries(
	db: Executor,
	actor: { id: string; email: string },
	deletions: readonly AuditedDeletion[],
	action: GenerationAction = "delete",
): Promise<void> {
	if (deletions.length === 0) return;
	// Milliseconds, as JavaScript keeps them: a cursor made from an entry must find it again.
	const createdAt = new Date();
	await db
		.insertInto("generation_audit_log")
		.values(
			deletions.map((deletion) => ({
				id: randomUUID(),
				action,
				actor_id: actor.id,
				actor_email: actor.email,
				owner_id: deletion.ownerId,
				owner_email: deletion.ownerEmail,
				generation_id: deletion.generationId,
				prompt: deletion.prompt,
				created_at: createdAt,
			})),
		)
		.execute();
}

/** An action on a person's account, not on a generation. */
export type PersonAction = Exclude<AuditAction, GenerationAction | ShareAction>;

/** An action on someone's shared link. */
export type ShareAction = Extract<AuditAction, "hide-share" | "revoke-share">;

/**
 * Records the administrator's action on a person (in the acting transaction), with the e-mail
 * address the person has now: the entry keeps it after the account is deleted (the owner
 * reference is then cleared). An account's deletion keeps no reference to the owner at all.
 */
export async function insertPersonEntry(
	db: Executor,
	actor: { id: string; email: string },
	entry: { action: PersonAction; ownerId: string; ownerEmail: string; details?: string },
): Promise<void> {
	await db
		.insertInto("generation_audit_log")
		.values({
			id: randomUUID(),
			action: entry.action,
			actor_id: actor.id,
			actor_email: actor.email,
			owner_id: entry.action === "delete-account" ? null : entry.ownerId,
			owner_email: entry.ownerEmail,
			generation_id: null,
			prompt: null,
			details: entry.details ?? null,
			created_at: new Date(),
		})
		.execute();
}

/**
 * Records the administrator's Hide or Revoke of a link (in the acting transaction): the
 * generation it shows, its prompt, and the link's id in the details.
 */
export async function insertShareEntry(
	db: Executor,
	actor: { id: string; email: string },
	entry: {
		action: ShareAction;
		shareId: string;
		ownerId: string;
		ownerEmail: string;
		/** Null once the generation is deleted. */
		generationId: string | null;
		prompt: string | null;
	},
): Promise<void> {
	await db
		.insertInto("generation_audit_log")
		.values({
			id: randomUUID(),
			action: entry.action,
			actor_id: actor.id,
			actor_email: actor.email,
			owner_id: entry.ownerId,
			owner_email: entry.ownerEmail,
			generation_id: entry.generationId,
			prompt: entry.prompt,
			details: `link ${entry.shareId}`,
			created_at: new Date(),
		})
		.execute();
}

/** One page of the audit log, newest first, keyed on (created_at, id) like the history. */
export async function selectAuditLogPage(
	db: Executor,
	options: { cursor: PageCursor | undefined; limit: number },
) {
	let query = db
		.selectFrom("generation_audit_log")
		.select([
			"id",
			"action",
			"actor_email",
			"owner_email",
			"generation_id",
			"prompt",
			"details",
			"created_at",
		])
		.orderBy("created_at", "desc")
		.orderBy("id", "desc")
		.limit(options.limit);
	if (options.cursor) query = query.where(isAfterCursor("generation_audit_log", options.cursor));
	return query.execute();
}
