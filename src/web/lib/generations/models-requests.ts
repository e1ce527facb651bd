// The models the server offers (GET /api/models), for every screen that shows or reuses a model.
// Loaded on demand only: it parses with zod/mini (docs/decisions/005-first-load-budget.md).
import { useQuery } from "@tanstack/react-query";
import { type ModelsResponse, ModelsResponseSchema } from "../../../shared/generations/models";
import { requestApi } from "../api/api-client";

/** The cache key of the models offered: one list for the whole app while it is open. */
export const MODELS_QUERY_KEY = ["models"] as const;

/** `GET /api/models`: the models offered, the default, and the person's latest still offered. */
export function fetchModels(signal?: AbortSignal): Promise<ModelsResponse> {
	return requestApi("/api/models", ModelsResponseSchema, { signal });
}

type OfferedModelsOptions<Selected> = {
	/**
	 * Given, the answer is the person's own, asked again when someone signs in or out: it names
	 * their latest model, which a generation of theirs may change, so it is kept a minute.
	 */
	isSignedIn?: boolean;
	enabled?: boolean;
	select?: (answer: ModelsResponse) => Selected;
};

/**
 * The models the server offers, shared by every screen: the list itself changes only when the
 * operator restarts the server.
 */
export function useOfferedModels<Selected = ModelsResponse>({
	isSignedIn,
	enabled,
	select,
}: OfferedModelsOptions<Selected> = {}) {
	const isPersonal = isSignedIn !== undefined;
	return useQuery({
		queryKey: isPersonal ? [...MODELS_QUERY_KEY, isSignedIn] : MODELS_QUERY_KEY,
		queryFn: ({ signal }) => fetchModels(signal),
		enabled,
		staleTime: isPersonal ? 60_000 : 5 * 60_000,
		select,
	});
}
