import { Hono } from "hono";
import { PeopleQuerySchema, SetQuotaRequestSchema } from "../../shared/people";
import type { Gate, ViewerEnv } from "../http/app-env";
import { AppError } from "../http/errors";
import { deletePerson } from "./delete-person";
import { disablePerson, enablePerson } from "./disable-person";
import { listPeople } from "./list-people";
import type { PeopleDeps } from "./people-service";
import { setPersonQuota } from "./set-person-quota";

/** Better Auth's user ids: anything else is an unknown person, answered without a query. */
const PERSON_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

function parsePersonId(value: string): string {
	if (!PERSON_ID_PATTERN.test(value)) throw new AppError("NOT_FOUND");
	return value;
}

function parseOrThrow<T>(
	schema: {
		safeParse(
			value: unknown,
		): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
	},
	value: unknown,
): T {
	const result = schema.safeParse(value);
	if (!result.success) throw new AppError("VALIDATION_ERROR", result.error.issues[0]?.message);
	return result.data;
}

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
		const id = parsePersonId(context.req.param("id"));
		const person = await disablePerson(deps, context.get("viewer"), id);
		return context.json({ success: true, person });
	});

	app.post("/admin/people/:id/enable", async (context) => {
		const id = parsePersonId(context.req.param("id"));
		const person = await enablePerson(deps, context.get("viewer"), id);
		return context.json({ success: true, person });
	});

	app.put("/admin/people/:id/quota", async (context) => {
		const id = parsePersonId(context.req.param("id"));
		const body = await context.req.json().catch(() => {
			throw new AppError("VALIDATION_ERROR");
		});
		const quota = parseOrThrow(SetQuotaRequestSchema, body);
		const person = await setPersonQuota(deps, context.get("viewer"), id, quota);
		return context.json({ success: true, person });
	});

	app.delete("/admin/people/:id", async (context) => {
		const id = parsePersonId(context.req.param("id"));
		await deletePerson(deps, context.get("viewer"), id);
		return context.json({ success: true });
	});

	return app;
}
