import { Hono } from "hono";
import { EnhancePromptRequestSchema } from "../../shared/generations/prompt-enhance";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseOrThrow, readJson } from "../http/request-input";
import { type EnhanceDeps, enhancePrompt } from "./enhance-prompt";
import { PROMPT_OPERATIONS as OPERATIONS } from "./prompt-operations";

/** `POST /api/prompts/enhance`: a rewrite of the prompt to review; nothing is stored with it. */
export function createEnhanceRoutes(options: { gate: Gate; deps: EnhanceDeps }) {
	const { gate, deps } = options;
	const app = new Hono<ViewerEnv>();

	app.post("/prompts/enhance", gate.allow(OPERATIONS.enhancePrompt.access), async (context) => {
		const request = parseOrThrow(EnhancePromptRequestSchema, await readJson(context.req));
		return context.json(await enhancePrompt(deps, context.get("viewer"), request));
	});

	return app;
}
