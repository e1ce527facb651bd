import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERATION_MESSAGES } from "../../shared/generations/generation-flow";
import {
	GenerationPageSchema,
	GenerationSchema,
} from "../../shared/generations/generation-responses";
import { AuditLogPageSchema } from "../../shared/history/history-responses";
import { TrashPageSchema } from "../../shared/history/trash";
import { createSilentLogger } from "../logging/logger";
import { catalogueOfOne } from "../models/model-catalogue";
import { createLocalProvider } from "../providers/local/local-provider";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { seedGeneration } from "../testing/history-kit";
import { readZip } from "../testing/read-zip";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	type TestServer,
} from "../testing/test-server";
import { purgeTrash } from "./trash/trash";

type Person = Awaited<ReturnType<typeof createTestUser>>;

async function json(response: Response | Promise<Response>, status = 200): Promise<unknown> {
	const answer = await response;
	expect(answer.status).toBe(status);
	return answer.json();
}

async function storedKeys(server: TestServer, id: string): Promise<string[]> {
	const keys: string[] = [];
	for await (const batch of server.storage.listKeys(`generations/${id}/`)) keys.push(...batch);
	return keys;
}

describe.each(availableDatabaseKinds())("the Trash, on %s", (kind) => {
	let server: TestServer;
	let owner: Person;
	let other: Person;
	let admin: Person;

	beforeAll(async () => {
		server = await createTestServer(kind, {
			isWorkerEnabled: false,
			limits: { maxActivePerUser: 3, dailyLimitPerUser: 2, trashDays: 30 },
		});
		owner = await createTestUser(server);
		other = await createTestUser(server);
		admin = await createTestAdministrator(server);
	});
	afterAll(async () => {
		await server?.close();
	});

	const history = async (person: Person, query = "") =>
		GenerationPageSchema.parse(
			await json(person.client.request(`/api/generations?limit=50${query}`)),
		);
	const trash = async (person: Person) =>
		TrashPageSchema.parse(await json(person.client.request("/api/trash?limit=50")));
	const remove = (person: Person, id: string, query = "") =>
		person.client.request(`/api/generations/${id}${query}`, { method: "DELETE" });
	const restore = (person: Person, ids: string[]) =>
		person.client.request("/api/trash/restore", { method: "POST", json: { ids } });

	it("deleting moves a generation to the Trash: gone from the history, its search, counts, polls, archives and family, kept in storage", async () => {
		const parent = await seedGeneration(server, { userId: owner.userId, prompt: "trashed parent" });
		const child = await seedGeneration(server, { userId: owner.userId, prompt: "its child" });
		await server.database.db
			.updateTable("generations")
			.set({ parent_generation_id: parent.id, parent_image_index: 0, action: "vary-subtle" })
			.where("id", "=", child.id)
			.execute();
		const before = await history(owner);

		expect(await json(remove(owner, parent.id))).toEqual({ success: true, permanent: false });

		const after = await history(owner);
		expect(after.items.map((item) => item.id)).not.toContain(parent.id);
		expect(after.total).toBe(before.total - 1);
		expect(after.today).toBe(before.today - 1);
		const searched = await history(owner, "&q=trashed");
		expect(searched.items).toEqual([]);
		expect(searched.total).toBe(0);
		// Its owner may still read it by id, marked; the administrator may not.
		const own = GenerationSchema.parse(
			await json(owner.client.request(`/api/generations/${parent.id}`)),
		);
		expect(own.deletedAt).toEqual(expect.any(String));
		await json(admin.client.request(`/api/generations/${parent.id}`), 404);
		await json(owner.client.request(`/api/generations/${parent.id}/status`), 404);
		await json(owner.client.request(`/api/generations/${parent.id}/archive`), 404);
		await json(
			owner.client.request("/api/generations/archive", {
				method: "POST",
				json: { ids: [parent.id] },
			}),
			404,
		);
		await json(owner.client.request(`/api/generations/${parent.id}/family`), 404);
		// Where the family names it, its owner sees it is in the Trash.
		const childShown = GenerationSchema.parse(
			await json(owner.client.request(`/api/generations/${child.id}`)),
		);
		expect(childShown.parent).toMatchObject({
			generationId: parent.id,
			exists: false,
			inTrash: true,
		});
		const family = await json(owner.client.request(`/api/generations/${child.id}/family`));
		expect(family).toMatchObject({ parent: null });
		// The Trash lists it, with when it goes for good; its images are still stored and readable.
		const listed = await trash(owner);
		const item = listed.items.find((entry) => entry.id === parent.id);
		expect(item).toBeDefined();
		const days = (Date.parse(item?.purgeAt ?? "") - Date.parse(item?.deletedAt ?? "")) / 86_400_000;
		expect(days).toBe(30);
		expect((await storedKeys(server, parent.id)).length).toBeGreaterThan(0);
		const image = await owner.client.request(item?.images[0]?.url ?? "");
		expect(image.status).toBe(200);
		// Nobody else's Trash shows it; a second delete of it is unknown.
		expect((await trash(other)).items).toEqual([]);
		await json(remove(owner, parent.id), 404);
	});

	it("restoring puts it back as it was: the same id, favourite and family links", async () => {
		const parent = await seedGeneration(server, {
			userId: owner.userId,
			prompt: "restored favourite",
			isFavorite: true,
		});
		const child = await seedGeneration(server, { userId: owner.userId, prompt: "restored child" });
		await server.database.db
			.updateTable("generations")
			.set({ parent_generation_id: parent.id, parent_image_index: 1, action: "vary-strong" })
			.where("id", "=", child.id)
			.execute();
		await json(remove(owner, parent.id));
		const parentInTrash = GenerationSchema.parse(
			await json(owner.client.request(`/api/generations/${parent.id}`)),
		);
		expect(parentInTrash.childrenCount).toBe(1);

		expect(await json(restore(owner, [parent.id]))).toEqual({ success: true, restored: 1 });

		const found = await history(owner, "&favorites=true&q=restored");
		expect(found.items.map((item) => item.id)).toEqual([parent.id]);
		expect(found.items[0]?.deletedAt).toBeUndefined();
		expect(found.items[0]?.childrenCount).toBe(1);
		const childShown = GenerationSchema.parse(
			await json(owner.client.request(`/api/generations/${child.id}`)),
		);
		expect(childShown.parent).toEqual({
			generationId: parent.id,
			imageIndex: 1,
			action: "vary-strong",
			exists: true,
		});
		expect((await trash(owner)).items.map((item) => item.id)).not.toContain(parent.id);
		// Restoring what is not in the Trash is unknown, all or none.
		await json(restore(owner, [parent.id]), 404);
	});

	it("a child in the Trash is out of its parent's family and count", async () => {
		const parent = await seedGeneration(server, { userId: owner.userId, prompt: "family parent" });
		const child = await seedGeneration(server, { userId: owner.userId, prompt: "family child" });
		await server.database.db
			.updateTable("generations")
			.set({ parent_generation_id: parent.id, parent_image_index: 0, action: "edit" })
			.where("id", "=", child.id)
			.execute();
		await json(remove(owner, child.id));
		const family = (await json(owner.client.request(`/api/generations/${parent.id}/family`))) as {
			children: unknown[];
		};
		expect(family.children).toEqual([]);
		const shown = GenerationSchema.parse(
			await json(owner.client.request(`/api/generations/${parent.id}`)),
		);
		expect(shown.childrenCount).toBe(0);
	});

	it("Delete forever and ?permanent=true remove the row and every stored object; Delete forever takes only the Trash's", async () => {
		const live = await seedGeneration(server, { userId: owner.userId, prompt: "for good at once" });
		expect(await json(remove(owner, live.id, "?permanent=true"))).toEqual({
			success: true,
			permanent: true,
		});
		await json(owner.client.request(`/api/generations/${live.id}`), 404);
		expect(await storedKeys(server, live.id)).toEqual([]);

		const kept = await seedGeneration(server, { userId: owner.userId, prompt: "not in the trash" });
		const trashed = await seedGeneration(server, { userId: owner.userId, prompt: "forever" });
		await json(remove(owner, trashed.id));
		await json(
			owner.client.request("/api/trash/delete", {
				method: "POST",
				json: { ids: [trashed.id, kept.id] },
			}),
			404,
		);
		expect(
			await json(
				owner.client.request("/api/trash/delete", { method: "POST", json: { ids: [trashed.id] } }),
			),
		).toEqual({ success: true, deleted: 1 });
		expect(await storedKeys(server, trashed.id)).toEqual([]);
		expect((await storedKeys(server, kept.id)).length).toBeGreaterThan(0);
		await json(remove(owner, kept.id, "?permanent=maybe"), 400);
	});

	it("Empty Trash removes everything in one's own Trash, and nobody else's", async () => {
		const mine = await seedGeneration(server, { userId: other.userId, prompt: "mine" });
		const theirs = await seedGeneration(server, { userId: owner.userId, prompt: "theirs" });
		await json(remove(other, mine.id));
		await json(remove(owner, theirs.id));
		const emptied = (await json(other.client.request("/api/trash/empty", { method: "POST" }))) as {
			deleted: number;
		};
		expect(emptied.deleted).toBe(1);
		expect((await trash(other)).items).toEqual([]);
		expect(await storedKeys(server, mine.id)).toEqual([]);
		expect((await trash(owner)).items.map((item) => item.id)).toContain(theirs.id);
	});

	it("signed out 401, another person's ids 404, a read token sees but cannot restore, delete or empty", async () => {
		const generation = await seedGeneration(server, { userId: owner.userId, prompt: "scoped" });
		await json(remove(owner, generation.id));
		expect((await server.app.request("/api/trash")).status).toBe(401);
		await json(restore(other, [generation.id]), 404);
		await json(
			other.client.request("/api/trash/delete", { method: "POST", json: { ids: [generation.id] } }),
			404,
		);
		await json(other.client.request(`/api/generations/${generation.id}`), 404);
		const reader = await createToken(owner, ["read"]);
		const listed = TrashPageSchema.parse(
			await json(callWithToken(server, reader.token, "/api/trash")),
		);
		expect(listed.items.map((item) => item.id)).toContain(generation.id);
		for (const [path, body] of [
			["/api/trash/restore", { ids: [generation.id] }],
			["/api/trash/delete", { ids: [generation.id] }],
			["/api/trash/empty", undefined],
		] as const) {
			const response = await callWithToken(server, reader.token, path, {
				method: "POST",
				...(body ? { json: body } : {}),
			});
			expect(response.status).toBe(403);
		}
		const deleter = await createToken(owner, ["delete"]);
		expect(
			await json(
				callWithToken(server, deleter.token, "/api/trash/restore", {
					method: "POST",
					json: { ids: [generation.id] },
				}),
			),
		).toEqual({ success: true, restored: 1 });
	});

	it("the administrator's deletion goes to the owner's Trash; their restore and the purge are in the audit log", async () => {
		const generation = await seedGeneration(server, { userId: other.userId, prompt: "moderated" });
		await json(remove(admin, generation.id));
		expect((await trash(other)).items.map((item) => item.id)).toContain(generation.id);
		// The administrator sees everyone's Trash, with whose it is.
		const adminView = await trash(admin);
		expect(adminView.items.find((item) => item.id === generation.id)?.owner_email).toBe(
			other.email,
		);
		await json(restore(admin, [generation.id]));
		expect((await history(other)).items.map((item) => item.id)).toContain(generation.id);
		await json(remove(admin, generation.id));

		// Past its days, the purge removes it for good, once, however often it runs.
		await sql`update generations set deleted_at = now() - interval '31 days' where id = ${generation.id}`.execute(
			server.database.db,
		);
		const deps = {
			database: server.database,
			storage: server.storage,
			models: catalogueOfOne(createLocalProvider({ delayMs: 0 })),
			logger: createSilentLogger(),
			limits: { maxActivePerUser: 3, dailyLimitPerUser: 0, trashDays: 30 },
		};
		const purged = await Promise.all([purgeTrash(deps), purgeTrash(deps)]);
		expect(purged[0] + purged[1]).toBe(1);
		expect(await purgeTrash(deps)).toBe(0);
		expect(await storedKeys(server, generation.id)).toEqual([]);
		await json(other.client.request(`/api/generations/${generation.id}`), 404);

		const log = AuditLogPageSchema.parse(
			await json(admin.client.request("/api/admin/audit-log?limit=100")),
		);
		const actions = log.items
			.filter((entry) => entry.generation_id === generation.id)
			.map((entry) => entry.action);
		expect(actions).toEqual(["purge", "delete", "restore", "delete"]);
	});

	it("quotas do not count the Trash", async () => {
		const person = await createTestUser(server);
		for (const prompt of ["one", "two"]) {
			await seedGeneration(server, { userId: person.userId, prompt });
		}
		const full = await person.client.request("/api/generations", {
			method: "POST",
			json: { prompt: "a third", aspectRatio: "--ar 1:1" },
		});
		expect(full.status).toBe(429);
		const page = await history(person);
		await json(remove(person, page.items[0]?.id ?? ""));
		const created = await person.client.request("/api/generations", {
			method: "POST",
			json: { prompt: "a third", aspectRatio: "--ar 1:1" },
		});
		expect(created.status).toBe(201);
	});

	it("a queued generation moved to the Trash is cancelled, and comes back failed", async () => {
		const queued = await seedGeneration(server, {
			userId: owner.userId,
			prompt: "still queued",
			status: "queued",
		});
		await json(remove(owner, queued.id));
		const active = await json(owner.client.request("/api/generations/active"));
		expect(JSON.stringify(active)).not.toContain(queued.id);
		await json(restore(owner, [queued.id]));
		const shown = GenerationSchema.parse(
			await json(owner.client.request(`/api/generations/${queued.id}`)),
		);
		expect(shown.status).toBe("failed");
		expect(shown.error).toBe(GENERATION_MESSAGES.cancelled);
	});

	it("the usage report's stored images leave the Trash out and show it apart", async () => {
		const person = await createTestUser(server);
		const generation = await seedGeneration(server, {
			userId: person.userId,
			prompt: "weighed",
			isSizeRecorded: true,
		});
		type Storage = { totalImages: number; totalBytes: number; trashImages?: number };
		const storage = async () =>
			((await json(admin.client.request("/api/admin/usage"))) as { storage: Storage }).storage;
		const before = await storage();
		await json(remove(person, generation.id));
		const after = await storage();
		expect(after.totalImages).toBe(before.totalImages - 4);
		expect(after.totalBytes).toBeLessThan(before.totalBytes);
		expect(after.trashImages).toBe((before.trashImages ?? 0) + 4);
	});

	it("the account export leaves the Trash out", async () => {
		const person = await createTestUser(server);
		const kept = await seedGeneration(server, { userId: person.userId, prompt: "exported" });
		const trashed = await seedGeneration(server, { userId: person.userId, prompt: "left out" });
		await json(remove(person, trashed.id));
		const response = await person.client.request("/api/account/export");
		expect(response.status).toBe(200);
		const files = await readZip(new Uint8Array(await response.arrayBuffer()));
		const names = [...files.keys()].join("\n");
		expect(names).toContain(kept.id);
		expect(names).not.toContain(trashed.id);
		expect(files.get("account.json")?.toString("utf8")).toContain(
			"Generations in the Trash are left out of this export",
		);
	});
});

describe.each(availableDatabaseKinds())("TRASH_DAYS=0, on %s", (kind) => {
	let server: TestServer;
	let owner: Person;

	beforeAll(async () => {
		server = await createTestServer(kind, {
			isWorkerEnabled: false,
			limits: { maxActivePerUser: 3, dailyLimitPerUser: 0, trashDays: 0 },
		});
		owner = await createTestUser(server);
	});
	afterAll(async () => {
		await server?.close();
	});

	it("deletes at once, rows and files, with no Trash", async () => {
		const generation = await seedGeneration(server, { userId: owner.userId, prompt: "at once" });
		const answer = await json(
			owner.client.request("/api/generations/bulk-delete", {
				method: "POST",
				json: { ids: [generation.id] },
			}),
		);
		expect(answer).toEqual({ success: true, deleted: 1, permanent: true });
		await json(owner.client.request(`/api/generations/${generation.id}`), 404);
		expect(await storedKeys(server, generation.id)).toEqual([]);
		expect(TrashPageSchema.parse(await json(owner.client.request("/api/trash"))).items).toEqual([]);
	});
});
