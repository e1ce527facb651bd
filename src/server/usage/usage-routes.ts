import { Hono } from "hono";
import { z } from "zod";
import type { GenerationDeps } from "../generations/generation-deps";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseOrThrow } from "../http/request-input";
import { TimeZoneSchema } from "../http/time-zone";
import { reportUsage } from "./report-usage";

// Days of the usage report are the administrator's own (the browser sends its zone), else UTC.
const UsageQuerySchema = z.object({ timeZone: TimeZoneSchema.default("UTC") });

/** `/api/admin/usage`, the administrator's browser session only, as the audit log's route is. */
export function createUsageRoutes(options: {
	/** The one gate (auth/request-viewer.ts). */
	gate: Gate;
	deps: Pick<GenerationDeps, "database" | "models">;
}) {
	const { gate, deps } = options;
	const app = new Hono<ViewerEnv>();

	app.get("/admin/usage", gate.allowAdminOnly, async (context) => {
		const query = parseOrThrow(UsageQuerySchema, context.req.query());
		context.header("cache-control", "private, no-store");
		return context.json(await reportUsage(deps, query));
	});

	return app;
}
