// The models the server offers (GET /api/models), for every screen that shows or reuses a model.
// Loaded on demand only: it parses with zod/mini (docs/decisions/005-first-load-budget.md).
import { type ModelsResponse, ModelsResponseSchema } from "../../shared/models";
import { requestApi } from "./api-client";

/** The cache key of the models offered: one list for the whole app while it is open. */
export const MODELS_QUERY_KEY = ["models"] as const;

/** `GET /api/models`: the models offered, the default, and the person's latest still offered. */
export function fetchModels(signal?: AbortSignal): Promise<ModelsResponse> {
	return requestApi("/api/models", ModelsResponseSchema, { signal });
}
