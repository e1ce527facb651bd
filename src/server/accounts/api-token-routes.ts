import { Hono } from "hono";
import { CreateApiTokenRequestSchema } from "../../shared/account/api-tokens";
import { createApiToken, listApiTokens, revokeApiToken } from "../auth/api-tokens";
import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { BROWSER_ACCESS } from "../http/api-operations";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseId, parseOrThrow } from "../http/request-input";

/**
 * `/api/account/tokens`: a person's API tokens, for the account page and for scripts with a
 * signed-in browser session. A token never manages tokens, and minting one needs a verified
 * address where one is required (the gate, auth/request-viewer.ts, says both).
 */
export function createApiTokenRoutes(options: { database: Database; gate: Gate }) {
	const { database, gate } = options;
	const app = new Hono<ViewerEnv>();

	app.post("/account/tokens", gate.allow(BROWSER_ACCESS.accountGrant), async (context) => {
		const userId = context.get("viewer").id;
		const request = parseOrThrow(
			CreateApiTokenRequestSchema,
			await context.req.json().catch(() => undefined),
		);
		const created = await createApiToken(database.db, userId, request);
		context.header("cache-control", "no-store");
		return context.json(created, 201);
	});

	app.get("/account/tokens", gate.allowSessionOnly, async (context) => {
		const userId = context.get("viewer").id;
		context.header("cache-control", "no-store");
		return context.json({ tokens: await listApiTokens(database.db, userId) });
	});

	app.delete("/account/tokens/:id", gate.allowSessionOnly, async (context) => {
		const userId = context.get("viewer").id;
		// Not an id of ours: the same answer as someone else's token, without asking the database.
		const id = parseId(context.req.param("id"));
		if (!(await revokeApiToken(database.db, userId, id))) throw new AppError("NOT_FOUND");
		return context.json({ success: true });
	});

	return app;
}
