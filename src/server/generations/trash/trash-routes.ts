import { Hono } from "hono";
import {
	GenerationIdsRequestSchema,
	TrashQuerySchema,
} from "../../../shared/generations/generations";
import type { Gate, ViewerEnv } from "../../http/app-env";
import { parseOrThrow, readJson } from "../../http/request-input";
import type { GenerationDeps } from "../generation-deps";
import { deleteFromTrash, emptyTrash, listTrash, restoreFromTrash } from "./trash";
import { TRASH_OPERATIONS as OPERATIONS } from "./trash-operations";

/**
 * `/api/trash` (decision 031): the Trash's list, restore, Delete forever and Empty Trash. Each
 * route is let in by its entry of TRASH_OPERATIONS: `read` to see, `delete` for the rest.
 */
export function createTrashRoutes(options: { gate: Gate; deps: GenerationDeps }) {
	const { gate, deps } = options;
	const { allow } = gate;
	const app = new Hono<ViewerEnv>();

	app.get("/trash", allow(OPERATIONS.listTrash.access), async (context) => {
		const query = parseOrThrow(TrashQuerySchema, context.req.query());
		context.header("cache-control", "no-store");
		return context.json(await listTrash(deps, context.get("viewer"), query));
	});

	app.post("/trash/restore", allow(OPERATIONS.restoreTrash.access), async (context) => {
		const { ids } = parseOrThrow(GenerationIdsRequestSchema, await readJson(context.req));
		const restored = await restoreFromTrash(deps, context.get("viewer"), ids);
		return context.json({ success: true, restored });
	});

	app.post("/trash/delete", allow(OPERATIONS.deleteFromTrash.access), async (context) => {
		const { ids } = parseOrThrow(GenerationIdsRequestSchema, await readJson(context.req));
		const deleted = await deleteFromTrash(deps, context.get("viewer"), ids);
		return context.json({ success: true, deleted });
	});

	app.post("/trash/empty", allow(OPERATIONS.emptyTrash.access), async (context) => {
		const deleted = await emptyTrash(deps, context.get("viewer"));
		return context.json({ success: true, deleted });
	});

	return app;
}
