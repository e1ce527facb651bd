import { expect } from "vitest";
import { z } from "zod/mini";
import { type GenerationPage, GenerationPageSchema } from "../../shared/generations/generations";
import { type Board, BoardSchema, type CreateBoardRequest } from "../../shared/history/boards";
import type { TestClient } from "./test-server";

/** A board made through POST /api/boards by the person the client is signed in as. */
export async function makeBoard(
	client: TestClient,
	request: Partial<CreateBoardRequest> = {},
): Promise<Board> {
	const response = await client.request("/api/boards", {
		method: "POST",
		json: { name: "Lighthouses", ...request },
	});
	expect(response.status, await response.clone().text()).toBe(201);
	return z.parse(BoardSchema, await response.json());
}

/** Puts generations on a board through the API; answers its response. */
export function putOnBoard(
	client: TestClient,
	boardId: string,
	ids: readonly string[],
): Promise<Response> {
	return client.request(`/api/boards/${boardId}/generations`, {
		method: "POST",
		json: { ids },
	});
}

/** The board's page as the history shows it, with the history's filters in `query`. */
export async function readBoardPage(
	client: TestClient,
	boardId: string,
	query: Record<string, string> = {},
): Promise<GenerationPage> {
	const response = await client.request(
		`/api/generations?${new URLSearchParams({ board: boardId, ...query })}`,
	);
	expect(response.status, await response.clone().text()).toBe(200);
	return GenerationPageSchema.parse(await response.json());
}
