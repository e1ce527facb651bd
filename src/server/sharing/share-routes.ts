import { Hono } from "hono";
import { CreateShareRequestSchema } from "../../shared/history/sharing";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseId, parseOrThrow, readJson } from "../http/request-input";
import { createShare, listShares, revokeShare, rotateShare, type ShareDeps } from "./create-share";
import { listAllShares, listShareReports, moderateShare } from "./moderate-shares";
import { SHARE_OPERATIONS as OPERATIONS } from "./share-operations";

/**
 * The owner's links (/api/shares, let in by their entries of SHARE_OPERATIONS) and the
 * administrator's moderation (/api/admin/shares and /api/admin/reports, their browser session
 * only, each action audited).
 */
export function createShareRoutes(options: { gate: Gate; deps: ShareDeps }) {
	const { gate, deps } = options;
	const { allow, allowAdminOnly } = gate;
	const app = new Hono<ViewerEnv>();

	app.post("/shares", allow(OPERATIONS.createShare.access), async (context) => {
		const request = parseOrThrow(CreateShareRequestSchema, await readJson(context.req));
		const created = await createShare(deps, context.get("viewer"), request);
		return context.json(created, 201);
	});

	app.get("/shares", allow(OPERATIONS.listShares.access), async (context) => {
		const items = await listShares(deps, context.get("viewer"));
		return context.json({ items });
	});

	app.delete("/shares/:id", allow(OPERATIONS.revokeShare.access), async (context) => {
		const id = parseId(context.req.param("id"));
		return context.json(await revokeShare(deps, context.get("viewer"), id));
	});

	app.post("/shares/:id/rotate", allow(OPERATIONS.rotateShare.access), async (context) => {
		const id = parseId(context.req.param("id"));
		return context.json(await rotateShare(deps, context.get("viewer"), id), 201);
	});

	app.get("/admin/shares", allowAdminOnly, async (context) => {
		return context.json({ items: await listAllShares(deps) });
	});

	app.get("/admin/reports", allowAdminOnly, async (context) => {
		return context.json({ items: await listShareReports(deps) });
	});

	app.post("/admin/shares/:id/hide", allowAdminOnly, async (context) => {
		const id = parseId(context.req.param("id"));
		return context.json(await moderateShare(deps, context.get("viewer"), id, "hide-share"));
	});

	app.delete("/admin/shares/:id", allowAdminOnly, async (context) => {
		const id = parseId(context.req.param("id"));
		return context.json(await moderateShare(deps, context.get("viewer"), id, "revoke-share"));
	});

	return app;
}
