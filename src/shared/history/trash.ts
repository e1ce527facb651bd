// The Trash's answers (decision 031), in zod/mini like generation-responses.ts, for the Trash page
// to parse.
import { z } from "zod/mini";
import { GenerationSchema } from "../generations/generation-responses";

/** A generation in the Trash: when it was deleted, and when the purge removes it for good. */
export const TrashItemSchema = z.extend(GenerationSchema, {
	deletedAt: z.string(),
	purgeAt: z.string(),
});
export type TrashItem = z.infer<typeof TrashItemSchema>;

/** `GET /api/trash`: newest deletion first, one cursor page at a time. */
export const TrashPageSchema = z.object({
	items: z.array(TrashItemSchema),
	nextCursor: z.nullable(z.string()),
});
export type TrashPage = z.infer<typeof TrashPageSchema>;

/** `POST /api/trash/restore`: how many came back. */
export const RestoreResponseSchema = z.object({
	success: z.literal(true),
	restored: z.int(),
});

/** `POST /api/trash/delete` and `POST /api/trash/empty`: how many were deleted for good. */
export const TrashDeleteResponseSchema = z.object({
	success: z.literal(true),
	deleted: z.int(),
});
