import { Hono } from "hono";
import type { RecentPrompts } from "../../shared/prompts/prompt-tool-responses";
import {
	RecentPromptsQuerySchema,
	RemoveRecentPromptsRequestSchema,
} from "../../shared/prompts/recent-prompts";
import type { Database } from "../db/database";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseOrThrow, readJson } from "../http/request-input";
import { PROMPT_OPERATIONS as OPERATIONS } from "./prompt-operations";
import { listRecentPrompts, removeRecentPrompts } from "./recent-prompts-repository";

/**
 * `/api/prompts/recent`: the person's last distinct prompts, kept on the server so they follow the
 * person to another device, and their removal. Written by create-generation.ts.
 */
export function createRecentPromptsRoutes(options: { gate: Gate; database: Database }) {
	const { gate, database } = options;
	const { allow } = gate;
	const app = new Hono<ViewerEnv>();

	app.get("/prompts/recent", allow(OPERATIONS.listRecentPrompts.access), async (context) => {
		const { q } = parseOrThrow(RecentPromptsQuerySchema, context.req.query());
		const rows = await listRecentPrompts(database.db, context.get("viewer").id, q || undefined);
		return context.json({
			items: rows.map((row) => ({
				prompt: row.prompt,
				lastUsedAt: row.last_used_at.toISOString(),
			})),
		} satisfies RecentPrompts);
	});

	app.post(
		"/prompts/recent/remove",
		allow(OPERATIONS.removeRecentPrompts.access),
		async (context) => {
			const request = parseOrThrow(RemoveRecentPromptsRequestSchema, await readJson(context.req));
			const removed = await removeRecentPrompts(
				database.db,
				context.get("viewer").id,
				"prompt" in request ? request.prompt : undefined,
			);
			return context.json({ success: true as const, removed });
		},
	);

	return app;
}
