import { Hono } from "hono";
import { UpdateAccountSettingsRequestSchema } from "../../shared/account/account-settings";
import type { Database } from "../db/database";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseOrThrow, readJson } from "../http/request-input";
import { readAccountSettings, updateAccountSettings } from "./account-settings-repository";

/**
 * `/api/account/settings`: the account's own settings (the theme), for the signed-in browser only,
 * as the account's other routes; a token is refused (the gate, auth/request-viewer.ts).
 */
export function createAccountSettingsRoutes(options: { database: Database; gate: Gate }) {
	const { database, gate } = options;
	const app = new Hono<ViewerEnv>();

	app.get("/account/settings", gate.allowSessionOnly, async (context) => {
		context.header("cache-control", "no-store");
		return context.json(await readAccountSettings(database.db, context.get("viewer").id));
	});

	app.patch("/account/settings", gate.allowSessionOnly, async (context) => {
		const changes = parseOrThrow(
			UpdateAccountSettingsRequestSchema,
			await readJson(context.req.raw),
		);
		context.header("cache-control", "no-store");
		return context.json(
			await updateAccountSettings(database.db, context.get("viewer").id, changes),
		);
	});

	return app;
}
