import { readdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	GenerationPageSchema,
	GenerationSchema,
	PollResponseSchema,
} from "../../shared/generations/generations";
import {
	type ImageProvider,
	PLAIN_CAPABILITIES,
	ProviderError,
	type ProviderJobState,
} from "../providers/types";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { waitForFinish } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

type Client = Awaited<ReturnType<typeof createTestUser>>["client"];

async function startGeneration(
	client: Client,
	body: unknown = { prompt: "a lighthouse at dusk", aspectRatio: "--ar 16:9" },
) {
	return client.request("/api/generations", { method: "POST", json: body });
}

async function listFiles(directory: string): Promise<string[]> {
	const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(
		() => [],
	);
	return entries
		.filter((entry) => entry.isFile())
		.map((entry) => path.join(entry.parentPath, entry.name));
}

/** A provider that never finishes, so generations stay active. */
function createStuckProvider(): ImageProvider {
	return {
		name: "stuck",
		capabilities: PLAIN_CAPABILITIES,
		async start() {
			return { jobId: `stuck-${Math.random()}` };
		},
		async check(): Promise<ProviderJobState> {
			return { status: "running" };
		},
	};
}

describe.each(availableDatabaseKinds())("generations on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server.close();
	});

	it("generates four images in the chosen ratio, stored with display copies and thumbnails, readable by the owner only", async () => {
		const { client } = await createTestUser(server);
		const start = await startGeneration(client);
		expect(start.status).toBe(201);
		const created = (await start.json()) as { success: boolean; id: string; pollingUrl: string };
		expect(created.success).toBe(true);
		expect(created.pollingUrl).toBe(`/api/generations/${created.id}/status`);

		const poll = await waitForFinish(client, created.pollingUrl);
		expect(poll).toMatchObject({ status: "completed", message: null });
		expect(poll.results).toHaveLength(4);

		const item = GenerationSchema.parse(
			await (await client.request(`/api/generations/${created.id}`)).json(),
		);
		expect(item.status).toBe("completed");
		expect(item.api_id).toMatch(/^local_/);
		expect(item.completed_at).not.toBeNull();
		expect(item.images).toHaveLength(4);
		for (const image of item.images) {
			expect(image.width).toBe(1024);
			expect(image.height).toBe(576);
			expect(Math.max(image.thumbnailWidth, image.thumbnailHeight)).toBe(384);
			const full = await client.request(image.url);
			expect(full.status).toBe(200);
			expect(full.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
			const bytes = Buffer.from(await full.arrayBuffer());
			expect((await sharp(bytes).metadata()).width).toBe(1024);
			const thumbnail = await client.request(image.thumbnailUrl);
			expect(thumbnail.headers.get("content-type")).toBe("image/webp");
			// The screens show the display copy; the offline engine's 1024 px fits it unscaled.
			expect(image.displayUrl).toMatch(/-display\.webp$/);
			expect([image.displayWidth, image.displayHeight]).toEqual([1024, 576]);
			const display = await client.request(image.displayUrl ?? "");
			expect(display.status).toBe(200);
			expect(display.headers.get("content-type")).toBe("image/webp");
		}

		const stranger = await createTestUser(server);
		expect((await stranger.client.request(item.images[0]?.url ?? "")).status).toBe(404);
		expect((await stranger.client.request(created.pollingUrl)).status).toBe(404);
		expect((await stranger.client.request(`/api/generations/${created.id}`)).status).toBe(404);
		expect((await new TestClient(server).request(item.images[0]?.url ?? "")).status).toBe(401);
	});

	it("refuses to list or read history without a session", async () => {
		const anonymous = new TestClient(server);
		for (const path of [
			"/api/generations",
			"/api/generations/00000000-0000-0000-0000-000000000000",
		]) {
			const response = await anonymous.request(path);
			expect(response.status).toBe(401);
		}
	});

	it("asks a signed-out visitor to sign in", async () => {
		const response = await startGeneration(new TestClient(server));
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual({
			success: false,
			error: { code: "SIGN_IN_REQUIRED", message: "Please sign in to generate images." },
		});
	});

	it.each([
		[{ aspectRatio: "--ar 1:1" }, "Prompt is required"],
		[{ prompt: 42, aspectRatio: "--ar 1:1" }, "Prompt is required"],
		[{ prompt: "   ", aspectRatio: "--ar 1:1" }, "Prompt cannot be empty"],
		[{ prompt: "x".repeat(501), aspectRatio: "--ar 1:1" }, "Prompt must be 500 characters or less"],
		[
			{ prompt: "<script>alert(1)</script>", aspectRatio: "--ar 1:1" },
			"Prompt contains invalid content",
		],
		[{ prompt: "a cat", aspectRatio: "--ar 5:4" }, undefined],
		[{ prompt: "a cat" }, undefined],
		["not an object", undefined],
	])("refuses %j with a clear message and writes nothing", async (body, message) => {
		const { client } = await createTestUser(server);
		const response = await startGeneration(client, body);
		const refusal = await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
		if (message) expect(refusal).toBe(message);
		else expect(refusal.length).toBeGreaterThan(0);
		const page = GenerationPageSchema.parse(
			await (await client.request("/api/generations")).json(),
		);
		expect(page.total).toBe(0);
	});

	it("refuses malformed JSON", async () => {
		const { client } = await createTestUser(server);
		const response = await client.request("/api/generations", {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: "{ not json",
		});
		await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
	});

	it("answers ids that are not ids, and other people's ids, with 404", async () => {
		const { client } = await createTestUser(server);
		for (const id of ["not-a-uuid", "1 OR 1=1", "00000000-0000-0000-0000-000000000000"]) {
			expect((await client.request(`/api/generations/${encodeURIComponent(id)}`)).status).toBe(404);
			expect(
				(await client.request(`/api/generations/${encodeURIComponent(id)}`, { method: "DELETE" }))
					.status,
			).toBe(404);
		}
	});

	it("deletes a generation for good with its stored files; others cannot delete it", async () => {
		const { client } = await createTestUser(server);
		const created = (await (await startGeneration(client)).json()) as {
			id: string;
			pollingUrl: string;
		};
		await waitForFinish(client, created.pollingUrl);
		const folder = path.join(server.storageDir, "generations", created.id);
		// Four originals, four display copies, four thumbnails.
		expect(await listFiles(folder)).toHaveLength(12);

		const stranger = await createTestUser(server);
		expect(
			(await stranger.client.request(`/api/generations/${created.id}`, { method: "DELETE" }))
				.status,
		).toBe(404);
		expect(await listFiles(folder)).toHaveLength(12);

		// For good: a plain DELETE moves it to the Trash, which keeps its files (trash.test.ts).
		const response = await client.request(`/api/generations/${created.id}?permanent=true`, {
			method: "DELETE",
		});
		expect(response.status).toBe(200);
		expect(await listFiles(folder)).toHaveLength(0);
		expect((await client.request(`/api/generations/${created.id}`)).status).toBe(404);
		const page = GenerationPageSchema.parse(
			await (await client.request("/api/generations")).json(),
		);
		expect({ total: page.total, today: page.today, items: page.items.length }).toEqual({
			total: 0,
			today: 0,
			items: 0,
		});
	});

	it("lists only the caller's generations, newest first, in stable cursor pages with counts", async () => {
		const { client } = await createTestUser(server);
		const other = await createTestUser(server);
		const ids: string[] = [];
		for (let index = 0; index < 3; index++) {
			const created = (await (
				await startGeneration(client, { prompt: `scene ${index}`, aspectRatio: "--ar 1:1" })
			).json()) as { id: string; pollingUrl: string };
			await waitForFinish(client, created.pollingUrl);
			ids.push(created.id);
		}
		await waitForFinish(
			other.client,
			((await (await startGeneration(other.client)).json()) as { pollingUrl: string }).pollingUrl,
		);

		const first = GenerationPageSchema.parse(
			await (await client.request("/api/generations?limit=2")).json(),
		);
		expect(first.total).toBe(3);
		expect(first.today).toBe(3);
		expect(first.items.map((item) => item.prompt)).toEqual(["scene 2", "scene 1"]);
		expect(first.items[0]?.owner_email).toBeUndefined();
		expect(first.nextCursor).not.toBeNull();

		// A new generation must not shift the next page.
		const newer = (await (
			await startGeneration(client, { prompt: "scene 3", aspectRatio: "--ar 1:1" })
		).json()) as { pollingUrl: string };
		await waitForFinish(client, newer.pollingUrl);

		const second = GenerationPageSchema.parse(
			await (await client.request(`/api/generations?limit=2&cursor=${first.nextCursor}`)).json(),
		);
		expect(second.items.map((item) => item.prompt)).toEqual(["scene 0"]);
		expect(second.nextCursor).toBeNull();
		expect(second.total).toBe(4);

		expect((await client.request("/api/generations?cursor=garbage")).status).toBe(400);
		expect((await client.request("/api/generations?limit=1000")).status).toBe(400);
	});

	it("shows the administrator everyone's generations with each owner's e-mail", async () => {
		const person = await createTestUser(server);
		const created = (await (await startGeneration(person.client)).json()) as {
			id: string;
			pollingUrl: string;
		};
		await waitForFinish(person.client, created.pollingUrl);
		const admin = await createTestAdministrator(server);

		const page = GenerationPageSchema.parse(
			await (await admin.client.request("/api/generations?limit=100")).json(),
		);
		const item = page.items.find((candidate) => candidate.id === created.id);
		expect(item?.owner_email).toBe(person.email);
		expect(page.total).toBeGreaterThanOrEqual(1);
		expect((await admin.client.request(item?.images[0]?.url ?? "")).status).toBe(200);
		expect((await admin.client.request(created.pollingUrl)).status).toBe(200);
	});
});

describe("quotas and failures", () => {
	it("allows at most three active generations per person and says why", async () => {
		const server = await createTestServer("pglite", { provider: createStuckProvider() });
		try {
			const { client } = await createTestUser(server);
			for (let index = 0; index < 3; index++) {
				expect((await startGeneration(client)).status).toBe(201);
			}
			const refused = await startGeneration(client);
			expect(await expectErrorEnvelope(refused, 429, "QUOTA_EXCEEDED")).toMatch(
				/3 generations in progress \(the limit is 3\)/,
			);
			// Someone else is not affected.
			const other = await createTestUser(server);
			expect((await startGeneration(other.client)).status).toBe(201);
		} finally {
			await server.close();
		}
	});

	it("applies a daily limit when one is configured", async () => {
		const server = await createTestServer("pglite", {
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 2 },
		});
		try {
			const { client } = await createTestUser(server);
			expect((await startGeneration(client)).status).toBe(201);
			expect((await startGeneration(client)).status).toBe(201);
			const refused = await startGeneration(client);
			expect(await expectErrorEnvelope(refused, 429, "QUOTA_EXCEEDED")).toMatch(
				/today's limit of 2/,
			);
		} finally {
			await server.close();
		}
	});

	it("tells the person the image service is busy while a rate limit is waited out", async () => {
		let starts = 0;
		const rateLimited: ImageProvider = {
			name: "rate-limited",
			capabilities: PLAIN_CAPABILITIES,
			async start() {
				starts += 1;
				if (starts === 1) {
					throw new ProviderError("HTTP 429", {
						retryable: true,
						retryAfterMs: 4_000,
						isBusy: true,
					});
				}
				return { jobId: "job-1" };
			},
			async check() {
				return { status: "running" };
			},
		};
		const server = await createTestServer("pglite", { provider: rateLimited });
		try {
			const { client } = await createTestUser(server);
			const created = (await (await startGeneration(client)).json()) as { pollingUrl: string };
			const busy = "The image service is busy, retrying";
			const messages: Array<string | null> = [];
			const isDone = () => messages.includes(busy) && messages.at(-1) === null;
			for (let attempt = 0; attempt < 20 && !isDone(); attempt++) {
				const poll = PollResponseSchema.parse(
					await (await client.request(created.pollingUrl)).json(),
				);
				if (messages.at(-1) !== poll.message) messages.push(poll.message);
			}
			// Busy while the Retry-After is waited out; once the service answers, the message goes away.
			expect(messages.slice(messages.indexOf(busy))).toEqual([busy, null]);
			expect(starts).toBe(2);
		} finally {
			await server.close();
		}
	});

	it("marks a generation failed with the provider's message and leaves no files", async () => {
		const failing: ImageProvider = {
			name: "failing",
			capabilities: PLAIN_CAPABILITIES,
			async start() {
				return { jobId: "job-1" };
			},
			async check() {
				return { status: "failed", message: "The provider refused this prompt" };
			},
		};
		const server = await createTestServer("pglite", { provider: failing });
		try {
			const { client } = await createTestUser(server);
			const created = (await (await startGeneration(client)).json()) as {
				id: string;
				pollingUrl: string;
			};
			const poll = await waitForFinish(client, created.pollingUrl);
			expect(poll).toMatchObject({
				status: "failed",
				results: [],
				message: "The provider refused this prompt",
			});
			expect(await listFiles(server.storageDir)).toEqual([]);
		} finally {
			await server.close();
		}
	});

	it("times out a generation the provider never finishes", async () => {
		const server = await createTestServer("pglite", {
			provider: createStuckProvider(),
			run: { timeoutMs: 300 },
		});
		try {
			const { client } = await createTestUser(server);
			const created = (await (await startGeneration(client)).json()) as { pollingUrl: string };
			const poll = await waitForFinish(client, created.pollingUrl);
			expect(poll).toMatchObject({
				status: "failed",
				results: [],
				message: "Generation timed out",
			});
		} finally {
			await server.close();
		}
	});
});
