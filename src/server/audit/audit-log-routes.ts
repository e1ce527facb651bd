import { Hono } from "hono";
import { AuditLogQuerySchema } from "../../shared/generations/generations";
import type { Database } from "../db/database";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseOrThrow } from "../http/request-input";
import { listAuditLog } from "./audit-log";

/** `/api/admin/audit-log`, the administrator's browser session only (the gate's allowAdminOnly). */
export function createAuditLogRoutes(options: {
	/** The one gate (auth/request-viewer.ts). */
	gate: Gate;
	deps: { database: Database };
}) {
	const { gate, deps } = options;
	const app = new Hono<ViewerEnv>();

	app.get("/admin/audit-log", gate.allowAdminOnly, async (context) => {
		const query = parseOrThrow(AuditLogQuerySchema, context.req.query());
		return context.json(await listAuditLog(deps, query));
	});

	return app;
}
