// The models people choose from. Loaded on demand with the generator's controls: it parses with
// zod/mini, which the first page does without (docs/decisions/005-first-load-budget.md).
import { type ModelsResponse, ModelsResponseSchema } from "../../shared/models";
import { requestApi } from "./api-client";

/** `GET /api/models`: what is offered, the default, and the model a signed-in person chose last. */
export function fetchModels(signal?: AbortSignal): Promise<ModelsResponse> {
	return requestApi("/api/models", ModelsResponseSchema, { signal });
}
