// What the history's own endpoints answer (favourites, bulk delete, the administrator's audit log),
// in zod/mini like generation-responses.ts, for the history screen to parse.
import { z } from "zod/mini";

/** `PUT /api/generations/:id/favorite`. */
export const SetFavoriteResponseSchema = z.object({
	success: z.literal(true),
	favorite: z.boolean(),
});

/** `DELETE /api/generations/:id`: `permanent` false when it went to the Trash. */
export const DeleteGenerationResponseSchema = z.object({
	success: z.literal(true),
	permanent: z.optional(z.boolean()),
});

/** `POST /api/generations/bulk-delete`: `permanent` false when they went to the Trash. */
export const BulkDeleteResponseSchema = z.object({
	success: z.literal(true),
	deleted: z.int(),
	permanent: z.optional(z.boolean()),
});

/**
 * One administrator action: `delete` of another person's generation (with its id and prompt), or
 * an action on a person's account (`details` says what was set, e.g. the quotas).
 */
const AuditLogEntrySchema = z.object({
	id: z.string(),
	action: z.enum([
		"delete",
		"restore",
		"purge",
		"disable",
		"enable",
		"set-quota",
		"delete-account",
		"hide-share",
		"revoke-share",
	]),
	actor_email: z.string(),
	owner_email: z.string(),
	generation_id: z.nullable(z.string()),
	prompt: z.nullable(z.string()),
	details: z.nullable(z.string()),
	created_at: z.string(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>;

/** `GET /api/admin/audit-log`: newest first, one cursor page at a time. */
export const AuditLogPageSchema = z.object({
	items: z.array(AuditLogEntrySchema),
	nextCursor: z.nullable(z.string()),
});
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;
