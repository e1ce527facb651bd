// The prompt tools' calls (styles, the last prompts), each endpoint wrapped once. Loaded with the generator's settings
// and the account page, never with the first page: it parses with zod/mini.
import { useQuery } from "@tanstack/react-query";
import type { CreateStyleRequest, UpdateStyleRequest } from "../../../shared/prompts/prompt-styles";
import {
	EnhancedPromptSchema,
	type PromptStyle,
	PromptStyleSchema,
	PromptStylesSchema,
	PromptToolDoneSchema,
	RecentPromptsSchema,
	RemovedRecentPromptsSchema,
} from "../../../shared/prompts/prompt-tool-responses";
import type { RemoveRecentPromptsRequest } from "../../../shared/prompts/recent-prompts";
import { requestApi } from "../api/api-client";

/** `POST /api/prompts/enhance`: the operator's chat model's rewrite of the prompt, to review. */
export async function enhancePrompt(
	prompt: string,
	translate: boolean,
	signal?: AbortSignal,
): Promise<string> {
	const answer = await requestApi("/api/prompts/enhance", EnhancedPromptSchema, {
		method: "POST",
		body: JSON.stringify(translate ? { prompt, translate } : { prompt }),
		signal,
	});
	return answer.prompt;
}

/** The cache key of the person's styles: the generator's picker and the account page share it. */
export const STYLES_QUERY_KEY = ["styles"] as const;

function stylePath(id: string): string {
	return `/api/styles/${encodeURIComponent(id)}`;
}

/** `GET /api/styles`: the operator's styles, then the person's own. */
export async function fetchStyles(signal?: AbortSignal): Promise<PromptStyle[]> {
	return (await requestApi("/api/styles", PromptStylesSchema, { signal })).items;
}

/** The styles a signed-in person may choose; nothing is asked for anyone else. */
export function useStyles(isSignedIn: boolean) {
	return useQuery({
		queryKey: STYLES_QUERY_KEY,
		queryFn: ({ signal }) => fetchStyles(signal),
		enabled: isSignedIn,
		staleTime: 60_000,
	});
}

/** `POST /api/styles`: a style of the person's own. */
export function createStyle(style: CreateStyleRequest): Promise<PromptStyle> {
	return requestApi("/api/styles", PromptStyleSchema, {
		method: "POST",
		body: JSON.stringify(style),
	});
}

/** `PATCH /api/styles/:id`: renames one of the person's own styles. */
export function renameStyle(id: string, name: string): Promise<PromptStyle> {
	return requestApi(stylePath(id), PromptStyleSchema, {
		method: "PATCH",
		body: JSON.stringify({ name } satisfies UpdateStyleRequest),
	});
}

/** `DELETE /api/styles/:id`: one of the person's own styles. */
export async function deleteStyle(id: string): Promise<void> {
	await requestApi(stylePath(id), PromptToolDoneSchema, { method: "DELETE" });
}

/** The cache key of the person's last prompts, searched with `q`. */
export const RECENT_PROMPTS_QUERY_KEY = ["recent-prompts"] as const;

/** `GET /api/prompts/recent`: the person's last distinct prompts, newest first. */
export async function fetchRecentPrompts(search = "", signal?: AbortSignal): Promise<string[]> {
	const query = search.trim() ? `?${new URLSearchParams({ q: search.trim() })}` : "";
	const answer = await requestApi(`/api/prompts/recent${query}`, RecentPromptsSchema, { signal });
	return answer.items.map((item) => item.prompt);
}

/** `POST /api/prompts/recent/remove`: one prompt, or (without one) all of them. */
export async function removeRecentPrompts(prompt?: string): Promise<void> {
	await requestApi("/api/prompts/recent/remove", RemovedRecentPromptsSchema, {
		method: "POST",
		body: JSON.stringify(
			(prompt === undefined ? { all: true } : { prompt }) satisfies RemoveRecentPromptsRequest,
		),
	});
}
