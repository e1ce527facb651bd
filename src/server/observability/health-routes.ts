import { Hono } from "hono";
import { sql } from "kysely";
import type { Database } from "../db/database";
import type { AppEnv } from "../http/app-env";
import { errorResponse } from "../http/errors";
import type { Logger } from "../logging/logger";
import type { ReadinessCheck } from "./readiness";

/**
 * GET /api/health: liveness, the process answers and its database does (a restart is the cure).
 * GET /api/ready: whether to send it traffic, 200 or 503 with what is wrong (readiness.ts).
 */
export function createHealthRoutes(deps: {
	database: Database;
	logger: Logger;
	readiness: ReadinessCheck;
}) {
	const { database, logger, readiness } = deps;
	const app = new Hono<AppEnv>();

	app.get("/health", async (context) => {
		try {
			await sql`select 1`.execute(database.db);
			return context.json({ status: "ok", database: database.kind });
		} catch (error) {
			logger.warn("health check failed", { error });
			return errorResponse(context, "SERVICE_UNAVAILABLE");
		}
	});

	app.get("/ready", async (context) => {
		const answer = await readiness.check();
		context.header("cache-control", "no-store");
		return context.json(answer, answer.ready ? 200 : 503);
	});

	return app;
}
