import { Hono } from "hono";
import {
	CreateBoardRequestSchema,
	DeleteBoardQuerySchema,
	UpdateBoardRequestSchema,
} from "../../shared/history/boards";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseOrThrow, readIds, readJson } from "../http/request-input";
import { TimeZoneSchema } from "../http/time-zone";
import type { Viewer } from "../person/viewer";
import { BOARD_OPERATIONS as OPERATIONS } from "./board-operations";
import {
	addToBoard,
	type BoardDeps,
	createBoard,
	deleteBoard,
	listBoards,
	removeFromBoard,
	updateBoard,
} from "./manage-boards";

/** The zone a smart board's days are counted in: the caller's, else UTC. */
function readTimeZone(value: string | undefined): string {
	const parsed = TimeZoneSchema.safeParse(value);
	return parsed.success ? parsed.data : "UTC";
}

/**
 * `/api/boards` (decision 032). Each route is let in by its entry of BOARD_OPERATIONS; who may
 * see or change each board is board-access.ts's. The board's ZIP is served with the other
 * archives, by generations/files/file-routes.ts.
 */
export function createBoardRoutes(options: {
	gate: Gate;
	deps: BoardDeps;
	/** The one deletion of generations (generations/request/delete-generations.ts). */
	deleteGenerations(viewer: Viewer, ids: readonly string[]): Promise<number>;
}) {
	const { gate, deps } = options;
	const { allow } = gate;
	const app = new Hono<ViewerEnv>();

	app.get("/boards", allow(OPERATIONS.listBoards.access), async (context) => {
		const timeZone = readTimeZone(context.req.query("timeZone"));
		return context.json({ items: await listBoards(deps, context.get("viewer"), timeZone) });
	});

	app.post("/boards", allow(OPERATIONS.createBoard.access), async (context) => {
		const request = parseOrThrow(CreateBoardRequestSchema, await readJson(context.req));
		return context.json(await createBoard(deps, context.get("viewer"), request), 201);
	});

	app.patch("/boards/:id", allow(OPERATIONS.updateBoard.access), async (context) => {
		const request = parseOrThrow(UpdateBoardRequestSchema, await readJson(context.req));
		const id = context.req.param("id");
		return context.json(await updateBoard(deps, context.get("viewer"), id, request));
	});

	app.delete("/boards/:id", allow(OPERATIONS.deleteBoard.access), async (context) => {
		const query = parseOrThrow(DeleteBoardQuerySchema, context.req.query());
		const deletedGenerations = await deleteBoard(
			deps,
			context.get("viewer"),
			context.req.param("id"),
			{
				withGenerations: query.withGenerations === "true",
				deleteGenerations: options.deleteGenerations,
			},
		);
		return context.json({ success: true, deletedGenerations });
	});

	app.post("/boards/:id/generations", allow(OPERATIONS.addToBoard.access), async (context) => {
		const ids = await readIds(context.req);
		const changed = await addToBoard(deps, context.get("viewer"), context.req.param("id"), ids);
		return context.json({ success: true, changed });
	});

	app.post(
		"/boards/:id/generations/remove",
		allow(OPERATIONS.removeFromBoard.access),
		async (context) => {
			const ids = await readIds(context.req);
			const viewer = context.get("viewer");
			const changed = await removeFromBoard(deps, viewer, context.req.param("id"), ids);
			return context.json({ success: true, changed });
		},
	);

	return app;
}
