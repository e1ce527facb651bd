import { Hono } from "hono";
import { z } from "zod";
import { PeopleQuerySchema, SetQuotaRequestSchema } from "../../shared/admin/people";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseId, parseOrThrow, readJson } from "../http/request-input";
import { deletePerson } from "./delete-person";
import { disablePerson, enablePerson } from "./disable-person";
import { listPeople } from "./list-people";
import type { PeopleDeps } from "./people-service";
import { setPersonQuota } from "./set-person-quota";

/** Better Auth's user ids: anything else is an unknown person, answered without a query. */
const PERSON_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

const PersonIdSchema = z.string().regex(PERSON_ID_PATTERN);

/**
 * `/api/admin/people`: the administrator's listing of everyone and the actions on one person.
 * Signed out: 401; a token: 403; anyone but the administrator: 404 (the gate's allowAdminOnly).
 */
export function createPeopleRoutes(options: {
	deps: PeopleDeps;
	/** The one gate (auth/request-viewer.ts). */
	gate: Gate;
}) {
	const { deps, gate } = options;
	const app = new Hono<ViewerEnv>();

	app.use("/admin/people", gate.allowAdminOnly);
	app.use("/admin/people/*", gate.allowAdminOnly);

	app.get("/admin/people", async (context) => {
		const query = parseOrThrow(PeopleQuerySchema, context.req.query());
		return context.json(await listPeople(deps, context.get("viewer"), query));
	});

	app.post("/admin/people/:id/disable", async (context) => {
		const id = parseId(context.req.param("id"), PersonIdSchema);
		const person = await disablePerson(deps, context.get("viewer"), id);
		return context.json({ success: true, person });
	});

	app.post("/admin/people/:id/enable", async (context) => {
		const id = parseId(context.req.param("id"), PersonIdSchema);
		const person = await enablePerson(deps, context.get("viewer"), id);
		return context.json({ success: true, person });
	});

	app.put("/admin/people/:id/quota", async (context) => {
		const id = parseId(context.req.param("id"), PersonIdSchema);
		const quota = parseOrThrow(SetQuotaRequestSchema, await readJson(context.req));
		const person = await setPersonQuota(deps, context.get("viewer"), id, quota);
		return context.json({ success: true, person });
	});

	app.delete("/admin/people/:id", async (context) => {
		const id = parseId(context.req.param("id"), PersonIdSchema);
		await deletePerson(deps, context.get("viewer"), id);
		return context.json({ success: true });
	});

	return app;
}
