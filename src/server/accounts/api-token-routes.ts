import { Hono } from "hono";
import { CreateApiTokenRequestSchema } from "../../shared/api-tokens";
import { GenerationIdSchema } from "../../shared/generations";
import { createApiToken, listApiTokens, revokeApiToken } from "../auth/api-tokens";
import type { Auth } from "../auth/auth";
import type { Database } from "../db/database";
import type { AppEnv } from "../http/app-env";
import { AppError } from "../http/errors";

/**
 * `/api/account/tokens`: a person's API tokens, for the account page and for scripts with a
 * signed-in browser session. A token never manages tokens (app.ts refuses bearer requests under
 * /api/account before they get here).
 */
export function createApiTokenRoutes(options: { auth: Auth; database: Database }) {
	const { auth, database } = options;
	const app = new Hono<AppEnv>();

	async function readUserId(headers: Headers): Promise<string> {
		const session = await auth.api.getSession({ headers });
		if (!session) throw new AppError("AUTH_ERROR");
		return session.user.id;
	}

	app.post("/account/tokens", async (context) => {
		const userId = await readUserId(context.req.raw.headers);
		const parsed = CreateApiTokenRequestSchema.safeParse(
			await context.req.json().catch(() => undefined),
		);
		if (!parsed.success) throw new AppError("VALIDATION_ERROR", parsed.error.issues[0]?.message);
		const created = await createApiToken(database.db, userId, parsed.data);
		context.header("cache-control", "no-store");
		return context.json(created, 201);
	});

	app.get("/account/tokens", async (context) => {
		const userId = await readUserId(context.req.raw.headers);
		context.header("cache-control", "no-store");
		return context.json({ tokens: await listApiTokens(database.db, userId) });
	});

	app.delete("/account/tokens/:id", async (context) => {
		const userId = await readUserId(context.req.raw.headers);
		const id = context.req.param("id");
		// Not an id of ours: the same answer as someone else's token, without asking the database.
		if (!GenerationIdSchema.safeParse(id).success) throw new AppError("NOT_FOUND");
		if (!(await revokeApiToken(database.db, userId, id))) throw new AppError("NOT_FOUND");
		return context.json({ success: true });
	});

	return app;
}
