import { Hono } from "hono";
import {
	CreateStyleRequestSchema,
	UpdateStyleRequestSchema,
} from "../../shared/prompts/prompt-styles";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseOrThrow, readJson } from "../http/request-input";
import { PROMPT_OPERATIONS as OPERATIONS } from "./prompt-operations";
import { createStyle, deleteStyle, listStyles, type StyleDeps, updateStyle } from "./prompt-styles";

/**
 * `/api/styles`: the operator's styles and the person's own. Each route is let in by its entry of
 * PROMPT_OPERATIONS; only a person's own styles change.
 */
export function createStyleRoutes(options: { gate: Gate; deps: StyleDeps }) {
	const { gate, deps } = options;
	const { allow } = gate;
	const app = new Hono<ViewerEnv>();

	app.get("/styles", allow(OPERATIONS.listStyles.access), async (context) => {
		return context.json({ items: await listStyles(deps, context.get("viewer")) });
	});

	app.post("/styles", allow(OPERATIONS.createStyle.access), async (context) => {
		const input = parseOrThrow(CreateStyleRequestSchema, await readJson(context.req));
		return context.json(await createStyle(deps, context.get("viewer"), input), 201);
	});

	app.patch("/styles/:id", allow(OPERATIONS.updateStyle.access), async (context) => {
		const input = parseOrThrow(UpdateStyleRequestSchema, await readJson(context.req));
		const style = await updateStyle(deps, context.get("viewer"), context.req.param("id"), input);
		return context.json(style);
	});

	app.delete("/styles/:id", allow(OPERATIONS.deleteStyle.access), async (context) => {
		await deleteStyle(deps, context.get("viewer"), context.req.param("id"));
		return context.json({ success: true as const });
	});

	return app;
}
