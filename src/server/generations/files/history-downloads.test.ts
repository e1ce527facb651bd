import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GenerationPageSchema, GenerationSchema } from "../../../shared/generations/generations";
import { AuditLogPageSchema } from "../../../shared/history/history-responses";
import type { ImageProvider, ProviderJob, ProviderJobState } from "../../providers/types";
import { PLAIN_CAPABILITIES } from "../../providers/types";
import { expectErrorEnvelope } from "../../testing/error-envelope";
import { requestGeneration, waitUntilStarted } from "../../testing/generation-kit";
import { minutesAgo, type SeededGeneration, seedGeneration } from "../../testing/history-kit";
import { compressedImageData } from "../../testing/image-data";
import { readZip } from "../../testing/read-zip";
import { availableDatabaseKinds } from "../../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../../testing/test-server";
import { TEST_ADMIN_EMAIL } from "../../testing/test-settings";

type Person = Awaited<ReturnType<typeof createTestUser>>;

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

async function readZipResponse(response: Response): Promise<Map<string, Buffer>> {
	expect(response.status).toBe(200);
	expect(response.headers.get("content-type")).toBe("application/zip");
	return readZip(new Uint8Array(await response.arrayBuffer()));
}

/** A provider whose jobs never finish and that remembers which jobs it was asked to cancel. */
function createCancellableProvider() {
	const cancelled: string[] = [];
	let jobs = 0;
	const provider: ImageProvider = {
		name: "never-done",
		capabilities: PLAIN_CAPABILITIES,
		async start() {
			jobs += 1;
			return { jobId: `never-done-${jobs}` };
		},
		async check(): Promise<ProviderJobState> {
			return { status: "running" };
		},
		async cancel(job: ProviderJob) {
			cancelled.push(job.jobId);
		},
	};
	return { provider, cancelled };
}

/** Deletes for good (these tests are about what deleting removes; the Trash has trash.test.ts). */
function bulkDelete(person: Person, ids: unknown) {
	return person.client.request("/api/generations/bulk-delete?permanent=true", {
		method: "POST",
		json: { ids },
	});
}

function archiveOf(person: Person, ids: unknown) {
	return person.client.request("/api/generations/archive", { method: "POST", json: { ids } });
}

async function exists(person: Person, id: string): Promise<boolean> {
	return (await person.client.request(`/api/generations/${id}`)).status === 200;
}

describe.each(availableDatabaseKinds())("history downloads and deletion on %s", (kind) => {
	let server: TestServer;
	let admin: Person;
	let cancelled: string[];

	beforeAll(async () => {
		const cancellable = createCancellableProvider();
		cancelled = cancellable.cancelled;
		server = await createTestServer(kind, { provider: cancellable.provider });
		admin = await createTestAdministrator(server);
	});
	afterAll(async () => {
		await server.close();
	});

	const seed = (person: Person, prompt: string, options: { createdAt?: Date } = {}) =>
		seedGeneration(server, { userId: person.userId, prompt, ...options });

	async function storedFileExists(generation: SeededGeneration): Promise<boolean> {
		const key = generation.images[0]?.key ?? "";
		return (await server.storage.get(key)) !== undefined;
	}

	it("downloads one original image named from the prompt", async () => {
		const person = await createTestUser(server);
		const generation = await seed(person, "Lighthouse at Dusk, Café au lait --ar 16:9");
		const response = await person.client.request(
			`/api/generations/${generation.id}/images/1/download`,
		);
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toBe("image/png");
		expect(response.headers.get("content-disposition")).toBe(
			`attachment; filename="lighthouse-at-dusk-cafe-au-lait-2.png"; filename*=UTF-8''lighthouse-at-dusk-cafe-au-lait-2.png`,
		);
		// The stored image with its recipe written in (recipe-downloads.test.ts reads it).
		expect(compressedImageData(new Uint8Array(await response.arrayBuffer()))).toEqual(
			compressedImageData(generation.imageBytes[1] ?? new Uint8Array()),
		);

		// The administrator may download anyone's; a stranger learns nothing; no session, no image.
		expect(
			(await admin.client.request(`/api/generations/${generation.id}/images/0/download`)).status,
		).toBe(200);
		const stranger = await createTestUser(server);
		await expectErrorEnvelope(
			await stranger.client.request(`/api/generations/${generation.id}/images/0/download`),
			404,
			"NOT_FOUND",
		);
		await expectErrorEnvelope(
			await new TestClient(server).request(`/api/generations/${generation.id}/images/0/download`),
			401,
			"AUTH_ERROR",
		);
		for (const index of ["4", "-1", "x", "1.5", "99999"]) {
			await expectErrorEnvelope(
				await person.client.request(`/api/generations/${generation.id}/images/${index}/download`),
				404,
				"NOT_FOUND",
			);
		}
	});

	it("names a download `image` when the prompt has no letters or digits to use", async () => {
		const person = await createTestUser(server);
		const generation = await seed(person, "✨ — ✨");
		const response = await person.client.request(
			`/api/generations/${generation.id}/images/0/download`,
		);
		expect(response.headers.get("content-disposition")).toContain('filename="image-1.png"');
	});

	it("downloads one generation as a ZIP of its images and generation.json", async () => {
		const person = await createTestUser(server);
		const generation = await seed(person, "A lighthouse at dusk");
		const response = await person.client.request(`/api/generations/${generation.id}/archive`);
		expect(response.headers.get("content-disposition")).toBe(
			`attachment; filename="a-lighthouse-at-dusk.zip"; filename*=UTF-8''a-lighthouse-at-dusk.zip`,
		);
		const files = await readZipResponse(response);
		expect([...files.keys()].sort()).toEqual([
			"a-lighthouse-at-dusk-1.png",
			"a-lighthouse-at-dusk-2.png",
			"a-lighthouse-at-dusk-3.png",
			"a-lighthouse-at-dusk-4.png",
			"generation.json",
		]);
		expect(compressedImageData(files.get("a-lighthouse-at-dusk-3.png") ?? Buffer.alloc(0))).toEqual(
			compressedImageData(generation.imageBytes[2] ?? Buffer.alloc(0)),
		);
		const item = GenerationSchema.parse(
			await (await person.client.request(`/api/generations/${generation.id}`)).json(),
		);
		expect(JSON.parse(files.get("generation.json")?.toString() ?? "")).toMatchObject({
			id: generation.id,
			prompt: "A lighthouse at dusk",
			aspectRatio: "--ar 1:1",
			createdAt: item.created_at,
			provider: "local",
			model: { id: "local", label: "Offline engine" },
			settings: { count: 4, seed: null, negativePrompt: null, quality: null },
			images: [
				{ file: "a-lighthouse-at-dusk-1.png", width: 8, height: 8 },
				{ file: "a-lighthouse-at-dusk-2.png" },
				{ file: "a-lighthouse-at-dusk-3.png" },
				{ file: "a-lighthouse-at-dusk-4.png" },
			],
		});

		const stranger = await createTestUser(server);
		await expectErrorEnvelope(
			await stranger.client.request(`/api/generations/${generation.id}/archive`),
			404,
			"NOT_FOUND",
		);
		await readZipResponse(await admin.client.request(`/api/generations/${generation.id}/archive`));
	});

	it("downloads selected generations as one ZIP with a folder each, from JSON or a plain form", async () => {
		const person = await createTestUser(server);
		const older = await seed(person, "Red fox", { createdAt: new Date("2025-01-05T10:00:00Z") });
		const newer = await seed(person, "Red fox", { createdAt: new Date("2025-01-05T11:00:00Z") });
		const failed = await seedGeneration(server, {
			userId: person.userId,
			prompt: "broken",
			status: "failed",
			createdAt: new Date("2025-01-04T09:00:00Z"),
		});

		const response = await archiveOf(person, [older.id, failed.id, newer.id, older.id]);
		expect(response.headers.get("content-disposition")).toContain(
			'filename="atelier-3-generations.zip"',
		);
		const files = await readZipResponse(response);
		expect([...files.keys()].sort()).toEqual([
			"2025-01-04-broken/generation.json",
			"2025-01-05-red-fox-2/generation.json",
			"2025-01-05-red-fox-2/red-fox-1.png",
			"2025-01-05-red-fox-2/red-fox-2.png",
			"2025-01-05-red-fox-2/red-fox-3.png",
			"2025-01-05-red-fox-2/red-fox-4.png",
			"2025-01-05-red-fox/generation.json",
			"2025-01-05-red-fox/red-fox-1.png",
			"2025-01-05-red-fox/red-fox-2.png",
			"2025-01-05-red-fox/red-fox-3.png",
			"2025-01-05-red-fox/red-fox-4.png",
		]);
		// Newest first: the newer generation has the plain folder name.
		expect(
			JSON.parse(files.get("2025-01-05-red-fox/generation.json")?.toString() ?? ""),
		).toMatchObject({ id: newer.id });
		expect(
			compressedImageData(files.get("2025-01-05-red-fox-2/red-fox-1.png") ?? Buffer.alloc(0)),
		).toEqual(compressedImageData(older.imageBytes[0] ?? Buffer.alloc(0)));

		// A plain HTML form from our own page, as the browser sends it.
		const form = await person.client.request("/api/generations/archive", {
			method: "POST",
			headers: { "content-type": "application/x-www-form-urlencoded" },
			body: new URLSearchParams([
				["ids", older.id],
				["ids", newer.id],
			]).toString(),
		});
		expect([...(await readZipResponse(form)).keys()]).toHaveLength(10);
		const multipart = new FormData();
		multipart.append("ids", newer.id);
		expect(
			[
				...(
					await readZipResponse(
						await person.client.request("/api/generations/archive", {
							method: "POST",
							body: multipart,
						}),
					)
				).keys(),
			].sort(),
		).toEqual([
			"2025-01-05-red-fox/generation.json",
			"2025-01-05-red-fox/red-fox-1.png",
			"2025-01-05-red-fox/red-fox-2.png",
			"2025-01-05-red-fox/red-fox-3.png",
			"2025-01-05-red-fox/red-fox-4.png",
		]);
		// The same form sent from another site is refused.
		await expectErrorEnvelope(
			await person.client.request("/api/generations/archive", {
				method: "POST",
				headers: {
					"content-type": "application/x-www-form-urlencoded",
					origin: "https://elsewhere.example",
				},
				body: `ids=${older.id}`,
			}),
			403,
			"FOREIGN_ORIGIN",
		);
	});

	it("refuses an archive naming anyone else's generation, or too many, before sending a byte", async () => {
		const person = await createTestUser(server);
		const stranger = await createTestUser(server);
		const own = await seed(person, "mine");
		const theirs = await seed(stranger, "theirs");

		await expectErrorEnvelope(await archiveOf(person, [own.id, theirs.id]), 404, "NOT_FOUND");
		await expectErrorEnvelope(await archiveOf(person, [own.id, UNKNOWN_ID]), 404, "NOT_FOUND");
		await expectErrorEnvelope(await archiveOf(person, [own.id, "not-an-id"]), 404, "NOT_FOUND");
		const tooMany = Array.from({ length: 201 }, () => own.id);
		const message = await expectErrorEnvelope(
			await archiveOf(person, tooMany),
			400,
			"VALIDATION_ERROR",
		);
		expect(message).toContain("200");
		const fiveHundred = Array.from({ length: 500 }, () => crypto.randomUUID());
		await expectErrorEnvelope(await archiveOf(person, fiveHundred), 400, "VALIDATION_ERROR");
		await expectErrorEnvelope(await archiveOf(person, []), 400, "VALIDATION_ERROR");
		await expectErrorEnvelope(await archiveOf(person, own.id), 400, "VALIDATION_ERROR");
		await expectErrorEnvelope(
			await person.client.request("/api/generations/archive", {
				method: "POST",
				headers: { "content-type": "application/json" },
				body: "{ not json",
			}),
			400,
			"VALIDATION_ERROR",
		);
		// The administrator may archive anyone's generations together.
		const files = await readZipResponse(await archiveOf(admin, [own.id, theirs.id]));
		expect([...files.keys()].filter((name) => name.endsWith("generation.json"))).toHaveLength(2);
	});

	it("ends a ZIP whose storage fails part-way with an error, never a silently short file", async () => {
		const person = await createTestUser(server);
		const first = await seed(person, "first");
		const second = await seed(person, "second");
		const lost = second.images[2]?.key ?? "";
		await rm(path.join(server.storageDir, ...lost.split("/")));

		const response = await archiveOf(person, [first.id, second.id]);
		// The headers went out before the missing image was reached: the body must fail, not end.
		expect(response.status).toBe(200);
		await expect(response.arrayBuffer()).rejects.toThrow();
		const single = await person.client.request(`/api/generations/${second.id}/archive`);
		expect(single.status).toBe(200);
		await expect(single.arrayBuffer()).rejects.toThrow();
	});

	it("deletes several generations with their images in one request", async () => {
		const person = await createTestUser(server);
		const kept = await seed(person, "kept");
		const doomed = [
			await seed(person, "one"),
			await seed(person, "two"),
			await seed(person, "three"),
		];
		const ids = doomed.map((generation) => generation.id);

		const response = await bulkDelete(person, [...ids, ids[0]]);
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ success: true, deleted: 3, permanent: true });
		for (const generation of doomed) {
			expect(await exists(person, generation.id)).toBe(false);
			expect(await storedFileExists(generation)).toBe(false);
		}
		expect(await storedFileExists(kept)).toBe(true);
		const page = GenerationPageSchema.parse(
			await (await person.client.request("/api/generations")).json(),
		);
		expect({ total: page.total, ids: page.items.map((item) => item.id) }).toEqual({
			total: 1,
			ids: [kept.id],
		});
	});

	it("deletes all or nothing: one id that is not the caller's deletes none", async () => {
		const person = await createTestUser(server);
		const stranger = await createTestUser(server);
		const mine = [await seed(person, "one"), await seed(person, "two")];
		const theirs = await seed(stranger, "theirs");
		const ids = mine.map((generation) => generation.id);

		await expectErrorEnvelope(await bulkDelete(person, [...ids, theirs.id]), 404, "NOT_FOUND");
		await expectErrorEnvelope(await bulkDelete(person, [...ids, UNKNOWN_ID]), 404, "NOT_FOUND");
		await expectErrorEnvelope(await bulkDelete(person, [...ids, "1 OR 1=1"]), 404, "NOT_FOUND");
		const tooMany = [...ids, ...Array.from({ length: 199 }, () => crypto.randomUUID())];
		expect(
			await expectErrorEnvelope(await bulkDelete(person, tooMany), 400, "VALIDATION_ERROR"),
		).toContain("200");
		await expectErrorEnvelope(await bulkDelete(person, []), 400, "VALIDATION_ERROR");
		await expectErrorEnvelope(await bulkDelete(person, "everything"), 400, "VALIDATION_ERROR");
		for (const generation of mine) {
			expect(await exists(person, generation.id)).toBe(true);
			expect(await storedFileExists(generation)).toBe(true);
		}
		expect(await exists(stranger, theirs.id)).toBe(true);
		expect(await storedFileExists(theirs)).toBe(true);
	});

	it("cancels the provider's job of a running generation deleted in bulk", async () => {
		const person = await createTestUser(server);
		const { id } = await requestGeneration(person.client, "never finishes", "--ar 1:1");
		const jobId = (await waitUntilStarted(person.client, id)).api_id;
		expect(jobId).toMatch(/^never-done-/);
		const finished = await seed(person, "finished");

		expect(await (await bulkDelete(person, [id, finished.id])).json()).toEqual({
			success: true,
			deleted: 2,
			permanent: true,
		});
		expect(cancelled).toContain(jobId);
		expect(await exists(person, id)).toBe(false);
	});

	it("records every deletion of another person's generation by the administrator, for the administrator only", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const first = await seed(person, "first of theirs");
		const second = await seed(person, "second of theirs");
		const single = await seed(other, "removed alone");
		const adminsOwn = await seedGeneration(server, { userId: admin.userId, prompt: "admin's own" });

		// A refused bulk delete writes nothing to the log either.
		await expectErrorEnvelope(await bulkDelete(admin, [first.id, UNKNOWN_ID]), 404, "NOT_FOUND");
		const before = Date.now();
		expect(
			(
				await admin.client.request(`/api/generations/${single.id}?permanent=true`, {
					method: "DELETE",
				})
			).status,
		).toBe(200);
		expect(await (await bulkDelete(admin, [first.id, second.id, adminsOwn.id])).json()).toEqual({
			success: true,
			deleted: 3,
			permanent: true,
		});

		const log = AuditLogPageSchema.parse(
			await (await admin.client.request("/api/admin/audit-log?limit=100")).json(),
		);
		const ours = log.items.filter((entry) =>
			[first.id, second.id, single.id, adminsOwn.id].includes(entry.generation_id ?? ""),
		);
		expect(ours).toHaveLength(3);
		expect(ours.at(-1)).toMatchObject({
			action: "delete",
			actor_email: TEST_ADMIN_EMAIL,
			owner_email: other.email,
			generation_id: single.id,
			prompt: "removed alone",
		});
		expect(
			ours
				.slice(0, 2)
				.map((entry) => [entry.generation_id, entry.owner_email, entry.prompt])
				.sort(),
		).toEqual(
			[
				[first.id, person.email, "first of theirs"],
				[second.id, person.email, "second of theirs"],
			].sort(),
		);
		for (const entry of ours) {
			expect(new Date(entry.created_at).getTime()).toBeGreaterThanOrEqual(before - 1_000);
		}
		// Newest first, across cursor pages.
		const times = log.items.map((entry) => entry.created_at);
		expect([...times].sort().reverse()).toEqual(times);
		const firstPage = AuditLogPageSchema.parse(
			await (await admin.client.request("/api/admin/audit-log?limit=1")).json(),
		);
		const secondPage = AuditLogPageSchema.parse(
			await (
				await admin.client.request(`/api/admin/audit-log?limit=1&cursor=${firstPage.nextCursor}`)
			).json(),
		);
		expect([...firstPage.items, ...secondPage.items]).toEqual(log.items.slice(0, 2));

		// People deleting their own generations are not moderation: nothing is recorded.
		const own = await seed(person, "deleted by its owner");
		await bulkDelete(person, [own.id]);
		const after = AuditLogPageSchema.parse(
			await (await admin.client.request("/api/admin/audit-log?limit=100")).json(),
		);
		expect(after.items.some((entry) => entry.generation_id === own.id)).toBe(false);

		await expectErrorEnvelope(
			await person.client.request("/api/admin/audit-log"),
			404,
			"NOT_FOUND",
		);
		await expectErrorEnvelope(
			await new TestClient(server).request("/api/admin/audit-log"),
			401,
			"AUTH_ERROR",
		);
		await expectErrorEnvelope(
			await admin.client.request("/api/admin/audit-log?cursor=garbage"),
			400,
			"VALIDATION_ERROR",
		);
	});

	it("refuses state-changing history requests from other sites", async () => {
		const person = await createTestUser(server);
		const generation = await seed(person, "guarded", { createdAt: minutesAgo(1) });
		for (const [method, url, body] of [
			["POST", "/api/generations/bulk-delete", { ids: [generation.id] }],
			["PUT", `/api/generations/${generation.id}/favorite`, { favorite: true }],
		] as const) {
			await expectErrorEnvelope(
				await person.client.request(url, {
					method,
					json: body,
					headers: { origin: "https://elsewhere.example" },
				}),
				403,
				"FOREIGN_ORIGIN",
			);
		}
		expect(await exists(person, generation.id)).toBe(true);
	});
});
