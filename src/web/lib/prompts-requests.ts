// The prompt tools' calls (styles), each endpoint wrapped once. Loaded with the generator's settings
// and the account page, never with the first page: it parses with zod/mini.
import { useQuery } from "@tanstack/react-query";
import {
	type PromptStyle,
	PromptStyleSchema,
	PromptStylesSchema,
	PromptToolDoneSchema,
} from "../../shared/prompt-tool-responses";
import { requestApi } from "./api-client";

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
export function createStyle(style: {
	name: string;
	prompt: string;
	negativePrompt?: string | null;
}): Promise<PromptStyle> {
	return requestApi("/api/styles", PromptStyleSchema, {
		method: "POST",
		body: JSON.stringify(style),
	});
}

/** `PATCH /api/styles/:id`: renames one of the person's own styles. */
export function renameStyle(id: string, name: string): Promise<PromptStyle> {
	return requestApi(stylePath(id), PromptStyleSchema, {
		method: "PATCH",
		body: JSON.stringify({ name }),
	});
}

/** `DELETE /api/styles/:id`: one of the person's own styles. */
export async function deleteStyle(id: string): Promise<void> {
	await requestApi(stylePath(id), PromptToolDoneSchema, { method: "DELETE" });
}
