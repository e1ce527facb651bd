import sharp from "sharp";
import { expect } from "vitest";
import { z } from "zod";
import { type ApiTokenScope, CreatedApiTokenSchema } from "../../shared/account/api-tokens";
import type { Generation } from "../../shared/generations/generations";
import { CreatedShareSchema } from "../../shared/history/sharing";
import { UploadResponseSchema } from "../../shared/image-input/image-input";
import { PromptStyleSchema } from "../../shared/prompts/prompt-tool-responses";
import type { ApiOperation } from "../http/api-operations";
import { createSignedUrls } from "../storage/signed-urls";
import { makeBoard, putOnBoard } from "./board-kit";
import { readGeneration, requestGeneration, waitForFinish } from "./generation-kit";
import type { createTestUser, TestServer } from "./test-server";
import { createTestSettings } from "./test-settings";

export type Person = Awaited<ReturnType<typeof createTestUser>>;

export const PROMPT = "A lighthouse at dusk";

/** A token made on the account page, through the person's signed-in browser. */
export async function createToken(
	person: Person,
	scopes: ApiTokenScope[],
	expiresInDays: 30 | 90 | 365 | null = 30,
	name = "script",
) {
	const response = await person.client.request("/api/account/tokens", {
		method: "POST",
		json: { name, scopes, expiresInDays },
	});
	expect(response.status).toBe(201);
	return CreatedApiTokenSchema.parse(await response.json());
}

/** A request from a script: the token and nothing else (no cookie, no Origin). */
export function callWithToken(
	server: TestServer,
	token: string,
	path: string,
	init: RequestInit & { json?: unknown } = {},
): Promise<Response> {
	const headers = new Headers(init.headers);
	headers.set("authorization", `Bearer ${token}`);
	let body = init.body;
	if (init.json !== undefined) {
		headers.set("content-type", "application/json");
		body = JSON.stringify(init.json);
	}
	return Promise.resolve(server.app.request(path, { ...init, headers, body }));
}

export async function makeFinishedGeneration(person: Person): Promise<Generation> {
	const [generation] = await makeFinishedGenerations(person, 1);
	if (generation === undefined) throw new Error("no generation was made");
	return generation;
}

/**
 * `count` finished generations of `person`'s, made side by side: all requested, then all waited
 * for, as the queue runs them together (the server's per-person limit must allow `count`).
 */
export async function makeFinishedGenerations(
	person: Person,
	count: number,
): Promise<Generation[]> {
	const requested = await Promise.all(
		Array.from({ length: count }, () =>
			requestGeneration(person.client, PROMPT, "--ar 1:1", { count: 1 }),
		),
	);
	return Promise.all(
		requested.map(async (created) => {
			expect((await waitForFinish(person.client, created.pollingUrl)).status).toBe("completed");
			return readGeneration(person.client, created.id);
		}),
	);
}

/** Whether an operation, when a token may call it, deletes the generations it is about. */
export function deletesGenerations(operation: ApiOperation): boolean {
	return operation.access.scopes.includes("delete");
}

/**
 * Each call of a run with the finished generation of `owner`'s it is about, all made side by
 * side: a fresh one for each call that deletes it (`isDeleting`), and one that every other call
 * shares, since none of them changes what a later call sees of it.
 */
export async function withFinishedGenerations<Call extends object>(
	owner: Person,
	calls: readonly Call[],
	isDeleting: (call: Call) => boolean,
): Promise<Array<Call & { generation: Generation }>> {
	const generations = await makeFinishedGenerations(owner, 1 + calls.filter(isDeleting).length);
	let next = 1;
	return calls.map((call) => {
		const generation = generations[isDeleting(call) ? next++ : 0];
		if (generation === undefined) throw new Error("fewer generations were made than asked");
		return { ...call, generation };
	});
}

/** A small PNG in a multipart form's field `image`, as POST /api/uploads takes it. */
export async function pngForm(): Promise<FormData> {
	const png = await sharp({
		create: { width: 8, height: 8, channels: 3, background: "#2e86c1" },
	})
		.png()
		.toBuffer();
	const form = new FormData();
	form.set("image", new File([png], "reference.png", { type: "image/png" }));
	return form;
}

/**
 * A request with `token` for an operation, about `generation`, a finished generation of `owner`'s
 * (or about an upload), which they made in their browser: the token's own owner, or someone else.
 */
export async function requestOperation(
	server: TestServer,
	owner: Person,
	token: string,
	operation: ApiOperation,
	generation: Generation,
): Promise<Response> {
	if (operation.path.startsWith("/api/uploads")) {
		return requestUploadOperation(server, owner, token, operation);
	}
	if (operation.path === "/api/prompts/enhance") {
		return callWithToken(server, token, operation.path, {
			method: "POST",
			json: { prompt: PROMPT },
		});
	}
	if (operation.path.startsWith("/api/prompts/recent")) {
		return callWithToken(server, token, operation.path, {
			method: operation.method.toUpperCase(),
			...(operation.method === "post" ? { json: { all: true } } : {}),
		});
	}
	if (operation.path.startsWith("/api/styles")) {
		return requestStyleOperation(server, owner, token, operation);
	}
	if (operation.path.startsWith("/api/boards")) {
		return requestBoardOperation(server, owner, token, operation, generation.id);
	}
	if (operation.path.endsWith("/mask") || operation.path.endsWith("/source")) {
		const edited = await regionEditOf(owner);
		return callWithToken(server, token, operation.path.replace("{id}", edited));
	}
	if (operation.path.startsWith("/api/trash")) {
		return requestTrashOperation(server, owner, token, operation, generation.id);
	}
	if (operation.path.startsWith("/api/signed-files")) {
		return requestSignedFile(server, token, generation);
	}
	if (operation.path.startsWith("/api/s")) {
		return requestShareOperation(server, owner, token, operation, generation.id);
	}
	const image = generation.images[0]?.url ?? "";
	const [, , , , , run = "", file = ""] = image.split("/");
	const path = operation.path
		.replace("{id}", generation.id)
		.replace("{index}", "0")
		.replace("{run}", run)
		.replace("{file}", file);
	const body =
		operation.body === undefined
			? undefined
			: operation.path.endsWith("/favorite")
				? { favorite: true }
				: operation.path === "/api/generations"
					? { prompt: PROMPT, aspectRatio: "--ar 1:1", count: 1 }
					: { ids: [generation.id] };
	return callWithToken(server, token, path, {
		method: operation.method.toUpperCase(),
		...(body === undefined ? {} : { json: body }),
	});
}

/**
 * The signed URL of `generation`'s first image, as a run sends one to an image service: open to any
 * holder, so a token of any scope (or none) reads it.
 */
async function requestSignedFile(
	server: TestServer,
	token: string,
	generation: Generation,
): Promise<Response> {
	const key = (generation.images[0]?.url ?? "").replace(/^\/api\/images\//, "");
	const signed = await createSignedUrls({
		storage: server.storage,
		baseUrl: "http://127.0.0.1",
		secret: createTestSettings().secret,
	}).urlFor(key);
	return callWithToken(server, token, new URL(signed).pathname);
}

/**
 * A request for a Trash operation. Restoring or deleting for good asks about `generationId`, which
 * its owner first moves to the Trash in their browser and afterwards takes back out (when the call
 * left it there), so the generation stays as it was for the calls that share it.
 */
async function requestTrashOperation(
	server: TestServer,
	owner: Person,
	token: string,
	operation: ApiOperation,
	generationId: string,
): Promise<Response> {
	const method = operation.method.toUpperCase();
	if (!operation.path.endsWith("/restore") && !operation.path.endsWith("/delete")) {
		return callWithToken(server, token, operation.path, { method });
	}
	const trashed = await owner.client.request(`/api/generations/${generationId}`, {
		method: "DELETE",
	});
	expect(trashed.status).toBe(200);
	const response = await callWithToken(server, token, operation.path, {
		method,
		json: { ids: [generationId] },
	});
	// Answers 404 when the call restored it or deleted it for good: nothing is left to take back.
	await owner.client.request("/api/trash/restore", {
		method: "POST",
		json: { ids: [generationId] },
	});
	return response;
}

/** A request for a shared-link operation, about a link `owner` made in their browser. */
async function requestShareOperation(
	server: TestServer,
	owner: Person,
	token: string,
	operation: ApiOperation,
	generationId: string,
): Promise<Response> {
	const request = { target: { generationId }, expires: "1d", originals: true, showPrompt: true };
	if (operation.path === "/api/shares") {
		return callWithToken(server, token, operation.path, {
			method: operation.method.toUpperCase(),
			...(operation.method === "post" ? { json: request } : {}),
		});
	}
	const made = await owner.client.request("/api/shares", { method: "POST", json: request });
	const share = CreatedShareSchema.parse(await made.json());
	const path = operation.path.replace("{id}", share.id).replace("{token}", share.token);
	return callWithToken(server, token, path, {
		method: operation.method.toUpperCase(),
		...(operation.path.endsWith("/report") ? { json: { reason: "Not for everyone" } } : {}),
	});
}

/** A request for an upload operation, about an image `owner` uploaded in their browser. */
async function requestUploadOperation(
	server: TestServer,
	owner: Person,
	token: string,
	operation: ApiOperation,
): Promise<Response> {
	if (operation.method === "post") {
		return callWithToken(server, token, operation.path, { method: "POST", body: await pngForm() });
	}
	const uploaded = await owner.client.request("/api/uploads", {
		method: "POST",
		body: await pngForm(),
	});
	const { uploadId } = z.parse(UploadResponseSchema, await uploaded.json());
	return callWithToken(server, token, operation.path.replace("{id}", uploadId));
}

const regionEdits = new WeakMap<Person, Promise<string>>();

/**
 * The id of a finished Edit region of `owner`'s, made once in their browser from an upload and a
 * mask of its size: reading its mask and its source changes nothing, so every call shares it.
 */
function regionEditOf(owner: Person): Promise<string> {
	const made = regionEdits.get(owner) ?? makeRegionEdit(owner);
	regionEdits.set(owner, made);
	return made;
}

async function makeRegionEdit(owner: Person): Promise<string> {
	const uploadOf = async (form: FormData) => {
		const uploaded = await owner.client.request("/api/uploads", { method: "POST", body: form });
		return z.parse(UploadResponseSchema, await uploaded.json()).uploadId;
	};
	const white = await sharp({
		create: { width: 8, height: 8, channels: 3, background: "#ffffff" },
	})
		.png()
		.toBuffer();
	const maskForm = new FormData();
	maskForm.set("image", new File([white], "mask.png", { type: "image/png" }));
	// No aspect ratio: an edit keeps its source's size.
	const response = await owner.client.request("/api/generations", {
		method: "POST",
		json: {
			prompt: PROMPT,
			action: "edit-region",
			reference: { uploadId: await uploadOf(await pngForm()) },
			mask: { uploadId: await uploadOf(maskForm) },
			count: 1,
		},
	});
	expect(response.status).toBe(201);
	const created = z.parse(
		z.object({ id: z.string(), pollingUrl: z.string() }),
		await response.json(),
	);
	expect((await waitForFinish(owner.client, created.pollingUrl)).status).toBe("completed");
	return created.id;
}

/** A request for a board operation, about a board of `owner`'s with their generation on it. */
async function requestBoardOperation(
	server: TestServer,
	owner: Person,
	token: string,
	operation: ApiOperation,
	generationId: string,
): Promise<Response> {
	const board = await makeBoard(owner.client, { name: "Script's board" });
	expect((await putOnBoard(owner.client, board.id, [generationId])).status).toBe(200);
	const body =
		operation.path.endsWith("/generations") || operation.path.endsWith("/remove")
			? { ids: [generationId] }
			: operation.body === undefined
				? undefined
				: { name: "Renamed by a script" };
	return callWithToken(server, token, operation.path.replace("{id}", board.id), {
		method: operation.method.toUpperCase(),
		...(body === undefined ? {} : { json: body }),
	});
}

/** A request for a style operation, about a personal style `owner` saved in their browser. */
async function requestStyleOperation(
	server: TestServer,
	owner: Person,
	token: string,
	operation: ApiOperation,
): Promise<Response> {
	const style = { name: "Watercolour", prompt: "{prompt}, watercolour" };
	if (operation.path === "/api/styles") {
		return callWithToken(server, token, operation.path, {
			method: operation.method.toUpperCase(),
			...(operation.method === "post" ? { json: style } : {}),
		});
	}
	const saved = await owner.client.request("/api/styles", { method: "POST", json: style });
	const { id } = z.parse(PromptStyleSchema, await saved.json());
	return callWithToken(server, token, operation.path.replace("{id}", id), {
		method: operation.method.toUpperCase(),
		...(operation.method === "patch" ? { json: { name: "Renamed" } } : {}),
	});
}
