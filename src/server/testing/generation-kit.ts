import { expect, onTestFinished } from "vitest";
import { z } from "zod/mini";
import {
	CreateGenerationResponseSchema,
	type Generation,
	GenerationSchema,
	type PollResponse,
	PollResponseSchema,
} from "../../shared/generations/generations";
import type { ImageProvider } from "../providers/types";
import { DEFAULT_RUN_SETTINGS } from "../server";
import { createTestServer, createTestUser, type TestClient, type TestServer } from "./test-server";

/** Helpers for the tests that run generations through the real server and worker. */

// Strict, so a test comparing a whole answer also notices a field the server should not send.
/** A poll answer with nothing beyond what the API names. */
export const ExactPollResponseSchema = z.strictObject(PollResponseSchema.shape);

/**
 * A real server (PGlite) whose worker uses this provider, closed when the calling test finishes,
 * and a person signed in to it.
 */
export async function startServerWithProvider(
	provider: ImageProvider,
): Promise<{ server: TestServer; client: TestClient }> {
	const server = await createTestServer("pglite", {
		provider,
		run: { ...DEFAULT_RUN_SETTINGS, providerPollMs: 20, retryDelayMs: 50, timeoutMs: 30_000 },
	});
	onTestFinished(() => server.close());
	return { server, client: await signUp(server) };
}

export async function signUp(server: TestServer): Promise<TestClient> {
	return (await createTestUser(server)).client;
}

export async function requestGeneration(
	client: TestClient,
	prompt: string,
	aspectRatio: string,
	settings: Record<string, unknown> = {},
): Promise<{ id: string; pollingUrl: string }> {
	const response = await client.request("/api/generations", {
		method: "POST",
		json: { prompt, aspectRatio, ...settings },
	});
	const created = CreateGenerationResponseSchema.parse(await response.json());
	if (!created.success) throw new Error(`creating failed: ${created.error.message}`);
	return created;
}

/**
 * Polls as the browser does until the generation is finished; each answer must be a PollResponse,
 * and is handed to `onPoll` (to follow the messages shown while it runs).
 */
export async function waitForFinish(
	client: TestClient,
	pollingUrl: string,
	onPoll?: (poll: PollResponse) => void,
): Promise<PollResponse> {
	for (let attempt = 0; attempt < 60; attempt++) {
		const response = await client.request(pollingUrl);
		expect(response.status).toBe(200);
		const poll = ExactPollResponseSchema.parse(await response.json());
		onPoll?.(poll);
		if (poll.status === "completed" || poll.status === "failed") return poll;
	}
	throw new Error("the generation did not finish");
}

/** The poll answer as it is now (`wait=0`: not waiting for a change), checked as above. */
export async function readPoll(client: TestClient, pollingUrl: string): Promise<PollResponse> {
	const response = await client.request(`${pollingUrl}?wait=0`);
	expect(response.status).toBe(200);
	return ExactPollResponseSchema.parse(await response.json());
}

export async function readGeneration(client: TestClient, id: string): Promise<Generation> {
	const response = await client.request(`/api/generations/${id}`);
	expect(response.status).toBe(200);
	return GenerationSchema.parse(await response.json());
}

/** Waits until the generation's provider job has started (its id is saved); answers the generation. */
export async function waitUntilStarted(client: TestClient, id: string): Promise<Generation> {
	await expect.poll(async () => (await readGeneration(client, id)).api_id).not.toBeNull();
	return readGeneration(client, id);
}

/** Deletes a generation once its provider job id is saved, as a person would mid-generation. */
export async function deleteWhenStarted(client: TestClient, id: string): Promise<Generation> {
	const started = await waitUntilStarted(client, id);
	const response = await client.request(`/api/generations/${id}`, { method: "DELETE" });
	expect(response.ok).toBe(true);
	return started;
}
