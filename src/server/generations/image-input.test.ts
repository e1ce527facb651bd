import { type CompiledQuery, Kysely, PostgresDialect, sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	CreateGenerationResponseSchema,
	type Generation,
	GenerationFamilySchema,
	GenerationPageSchema,
} from "../../shared/generations/generations";
import type { DatabaseSchema } from "../db/schema";
import { createModelCatalogue, modelFromProvider } from "../models/model-catalogue";
import { createLocalProvider, LOCAL_CAPABILITIES } from "../providers/local/local-provider";
import type { ImageProvider } from "../providers/types";
import type { Storage } from "../storage/storage";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { readGeneration, waitForFinish, waitUntilStarted } from "../testing/generation-kit";
import { measureImageDifference } from "../testing/image-data";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../testing/test-server";
import { insertTestUpload } from "../testing/upload-kit";
import { selectChildren } from "./generation-repository";
import { sweepStrayObjects } from "./run/sweep-stray-objects";

/** A gate the test opens: the gated model's runs wait at it before their images are made. */
function createGate() {
	let open = () => {};
	const opened = new Promise<void>((resolve) => {
		open = resolve;
	});
	return { opened, open };
}

/**
 * The offline engine four ways: as itself ("local", the default), unable to take an image
 * ("plain": text only, no upscale), held at a gate until the test opens it ("gated"), and taking
 * an image but no reference strength, as OpenAI's edits do ("free": no upscale either).
 */
function createCatalogue() {
	let gate = createGate();
	const local = createLocalProvider({ delayMs: 0 });
	const plain: ImageProvider = {
		...createLocalProvider({ delayMs: 0 }),
		name: "plain",
		capabilities: { ...LOCAL_CAPABILITIES, imageInput: false, upscaleFactors: [] },
	};
	const gatedEngine = createLocalProvider({ delayMs: 0 });
	const gated: ImageProvider = {
		...gatedEngine,
		name: "gated",
		async check(job, options) {
			await gate.opened;
			return gatedEngine.check(job, options);
		},
	};
	const free: ImageProvider = {
		...createLocalProvider({ delayMs: 0 }),
		name: "free",
		capabilities: { ...LOCAL_CAPABILITIES, referenceStrength: false, upscaleFactors: [] },
	};
	const catalogue = createModelCatalogue(
		[
			modelFromProvider(plain, { id: "plain", label: "Text only" }),
			modelFromProvider(local, { id: "local", label: "Offline engine" }),
			modelFromProvider(gated, { id: "gated", label: "Held engine" }),
			modelFromProvider(free, { id: "free", label: "Its own judge" }),
		],
		"local",
	);
	return {
		catalogue,
		closeGate() {
			gate = createGate();
		},
		openGate() {
			gate.open();
		},
	};
}

async function post(
	client: TestClient,
	body: Record<string, unknown>,
	headers: Record<string, string> = {},
): Promise<Response> {
	return client.request("/api/generations", { method: "POST", json: body, headers });
}

async function create(client: TestClient, body: Record<string, unknown>): Promise<string> {
	const response = await post(client, body);
	const created = CreateGenerationResponseSchema.parse(await response.json());
	if (!created.success) throw new Error(`creating failed: ${created.error.message}`);
	expect(response.status).toBe(201);
	return created.id;
}

/** Creates a generation and waits until it has completed; answers it as the API shows it. */
async function make(client: TestClient, body: Record<string, unknown>): Promise<Generation> {
	const id = await create(client, body);
	const poll = await waitForFinish(client, `/api/generations/${id}/status`);
	expect(poll.status).toBe("completed");
	return readGeneration(client, id);
}

async function listKeys(storage: Storage, prefix: string): Promise<string[]> {
	const keys: string[] = [];
	for await (const page of storage.listKeys(prefix)) keys.push(...page);
	return keys.sort();
}

async function readImage(client: TestClient, url: string): Promise<Buffer> {
	const response = await client.request(url);
	expect(response.status).toBe(200);
	return Buffer.from(await response.arrayBuffer());
}

function varyBody(parent: Generation, action: string, imageIndex = 0): Record<string, unknown> {
	return { reference: { generationId: parent.id, imageIndex }, action };
}

async function readFamily(client: TestClient, id: string, search = "") {
	const response = await client.request(`/api/generations/${id}/family${search}`);
	expect(response.status).toBe(200);
	return GenerationFamilySchema.parse(await response.json());
}

describe.each(availableDatabaseKinds())("images made from images on %s", (kind) => {
	let server: TestServer;
	let engines: ReturnType<typeof createCatalogue>;
	let person: Awaited<ReturnType<typeof createTestUser>>;
	let admin: Awaited<ReturnType<typeof createTestUser>>;
	let parent: Generation;

	beforeAll(async () => {
		engines = createCatalogue();
		server = await createTestServer(kind, {
			models: engines.catalogue,
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
			run: { providerPollMs: 20 },
		});
		person = await createTestUser(server);
		admin = await createTestAdministrator(server);
		parent = await make(person.client, {
			prompt: "a lighthouse on a cliff --ar 16:9",
			aspectRatio: "--ar 16:9",
			count: 2,
			seed: 5,
			negativePrompt: "fog",
		});
	});
	afterAll(async () => {
		engines.openGate();
		await server.close();
	});

	it("varies an image subtly and strongly: the parent's prompt, ratio, model and negative prompt, and pictures of their own", async () => {
		// One seed for both, so what tells them apart is how far each may move from the image.
		const subtle = await make(person.client, { ...varyBody(parent, "vary-subtle", 1), seed: 77 });
		const strong = await make(person.client, { ...varyBody(parent, "vary-strong", 1), seed: 77 });
		for (const [child, action] of [
			[subtle, "vary-subtle"],
			[strong, "vary-strong"],
		] as const) {
			expect(child).toMatchObject({
				prompt: parent.prompt,
				aspect_ratio: "--ar 16:9",
				model: { id: "local" },
				parent: { generationId: parent.id, imageIndex: 1, action, exists: true },
				childrenCount: 0,
			});
			expect(child.settings).toMatchObject({ negativePrompt: "fog", seed: 77 });
			expect(child.images).toHaveLength(4);
			expect([child.images[0]?.width, child.images[0]?.height]).toEqual([1024, 576]);
			// Its own copy of the image it starts from, in its own folder: the parent's original.
			expect(
				(await listKeys(server.storage, `generations/${child.id}/`)).filter((key) =>
					key.includes("/reference."),
				),
			).toEqual([`generations/${child.id}/reference.jpg`]);
		}
		const original = await readImage(person.client, parent.images[1]?.url ?? "");
		const copy = await server.storage.get(`generations/${subtle.id}/reference.jpg`);
		expect(copy && Buffer.from(copy.data).equals(original)).toBe(true);

		const subtleImage = await readImage(person.client, subtle.images[0]?.url ?? "");
		const strongImage = await readImage(person.client, strong.images[0]?.url ?? "");
		const subtleDistance = await measureImageDifference(original, subtleImage);
		const strongDistance = await measureImageDifference(original, strongImage);
		expect(subtleDistance).toBeGreaterThan(1);
		expect(strongDistance).toBeGreaterThan(subtleDistance);
		expect(await measureImageDifference(subtleImage, strongImage)).toBeGreaterThan(1);
		expect((await readGeneration(person.client, parent.id)).childrenCount).toBeGreaterThanOrEqual(
			2,
		);
	});

	it("upscales an image to twice (by default) and four times its width and height: one image, the parent's prompt and ratio", async () => {
		const double = await make(person.client, varyBody(parent, "upscale"));
		const quadruple = await make(person.client, { ...varyBody(parent, "upscale"), factor: 4 });
		for (const [child, factor] of [
			[double, 2],
			[quadruple, 4],
		] as const) {
			expect(child).toMatchObject({
				prompt: parent.prompt,
				aspect_ratio: "--ar 16:9",
				model: { id: "local" },
				settings: { count: 1 },
				parent: { generationId: parent.id, imageIndex: 0, action: "upscale", exists: true },
			});
			expect(child.images).toHaveLength(1);
			const metadata = await sharp(
				await readImage(person.client, child.images[0]?.url ?? ""),
			).metadata();
			expect([metadata.width, metadata.height]).toEqual([1024 * factor, 576 * factor]);
		}
	});

	it("upscales on the parent's model when it offers the factor, else on the first model that does", async () => {
		const plainParent = await make(person.client, {
			prompt: "a harbour at night",
			aspectRatio: "--ar 1:1",
			model: "plain",
			count: 1,
		});
		const upscaled = await make(person.client, varyBody(plainParent, "upscale"));
		expect(upscaled.model.id).toBe("local");
		const named = await post(person.client, {
			...varyBody(plainParent, "upscale"),
			model: "plain",
		});
		expect(await expectErrorEnvelope(named, 400, "VALIDATION_ERROR")).toMatch(/^factor /);
	});

	it("edits an uploaded image with a prompt: the upload is used, the result in the ratio nearest its own", async () => {
		const upload = await insertTestUpload(server, person.userId, { width: 600, height: 400 });
		const edited = await make(person.client, {
			prompt: "the same shapes as a stained-glass window",
			reference: { uploadId: upload.id },
		});
		expect(edited).toMatchObject({
			prompt: "the same shapes as a stained-glass window",
			aspect_ratio: "--ar 3:2",
			parent: { action: "edit", upload: true },
			childrenCount: 0,
		});
		expect(edited.images).toHaveLength(4);
		const row = await server.database.db
			.selectFrom("uploads")
			.select("used_at")
			.where("id", "=", upload.id)
			.executeTakeFirstOrThrow();
		expect(row.used_at).not.toBeNull();
		const copy = await server.storage.get(`generations/${edited.id}/reference.png`);
		const stored = await server.storage.get(upload.storage_key);
		expect(copy && stored && Buffer.from(copy.data).equals(Buffer.from(stored.data))).toBe(true);
	});

	it("edits an image of a generation with a new prompt and a strength, in the parent's ratio", async () => {
		const edited = await make(person.client, {
			prompt: "the same lighthouse in deep snow",
			reference: { generationId: parent.id, imageIndex: 0 },
			strength: 0.8,
			count: 2,
		});
		expect(edited).toMatchObject({
			prompt: "the same lighthouse in deep snow",
			aspect_ratio: "--ar 16:9",
			parent: { generationId: parent.id, imageIndex: 0, action: "edit", exists: true },
		});
		expect(edited.images).toHaveLength(2);
		const row = await server.database.db
			.selectFrom("generations")
			.select(["action", "reference_strength"])
			.where("id", "=", edited.id)
			.executeTakeFirstOrThrow();
		expect(row).toEqual({ action: "edit", reference_strength: 0.8 });
	});

	it("refuses a strength for a model that decides by itself how far to move from the image, and records none for it", async () => {
		const refused = await post(person.client, {
			prompt: "the same lighthouse at noon",
			reference: { generationId: parent.id, imageIndex: 0 },
			model: "free",
			strength: 0.3,
		});
		expect(await expectErrorEnvelope(refused, 400, "VALIDATION_ERROR")).toBe(
			"strength is not taken by this model: it decides by itself how far to move from the reference",
		);

		const edited = await make(person.client, {
			prompt: "the same lighthouse at noon",
			reference: { generationId: parent.id, imageIndex: 0 },
			model: "free",
			count: 1,
		});
		const varied = await make(person.client, { ...varyBody(parent, "vary-strong"), model: "free" });
		for (const [child, action] of [
			[edited, "edit"],
			[varied, "vary-strong"],
		] as const) {
			expect(child).toMatchObject({ model: { id: "free" }, parent: { action, exists: true } });
			const row = await server.database.db
				.selectFrom("generations")
				.select(["action", "reference_strength"])
				.where("id", "=", child.id)
				.executeTakeFirstOrThrow();
			expect(row).toEqual({ action, reference_strength: null });
		}
	});

	it("answers 400 naming the field for each bad, missing or unusable field", async () => {
		engines.closeGate();
		const upload = await insertTestUpload(server, person.userId);
		const running = await create(person.client, {
			prompt: "held at the gate",
			aspectRatio: "--ar 1:1",
			model: "gated",
			count: 1,
		});
		const ofParent = (imageIndex = 0) => ({ generationId: parent.id, imageIndex });
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[{ aspectRatio: "--ar 1:1" }, /^Prompt is required/],
			[{ prompt: "a cat" }, /^Aspect ratio must be one of/],
			[{ prompt: "a cat", aspectRatio: "--ar 1:1", action: "vary-subtle" }, /^reference /],
			[{ prompt: "a cat", aspectRatio: "--ar 1:1", strength: 0.5 }, /^strength /],
			[{ prompt: "a cat", aspectRatio: "--ar 1:1", factor: 2 }, /^factor /],
			[{ reference: ofParent(), action: "vary-sideways" }, /^action must be one of/],
			[{ reference: ofParent(), action: "upscale", factor: 3 }, /^factor must be 2 or 4/],
			[{ reference: ofParent(), prompt: "x", strength: 1.5 }, /^strength must be a number/],
			[{ reference: ofParent(), prompt: "x", strength: "high" }, /^strength must be a number/],
			[{ reference: { generationId: parent.id } }, /^reference must be/],
			[
				{ reference: { uploadId: upload.id, generationId: parent.id, imageIndex: 0 } },
				/^reference must be/,
			],
			[{ reference: ofParent(-1), action: "vary-subtle" }, /^reference must be/],
			[
				{ reference: ofParent(2), action: "vary-subtle" },
				/^reference's imageIndex must be from 0 to 1/,
			],
			[
				{ reference: { generationId: running, imageIndex: 0 }, action: "vary-subtle" },
				/^reference must be an image of a completed generation/,
			],
			[
				{ reference: { uploadId: upload.id }, action: "vary-strong" },
				/^reference of vary-strong must be an image of a generation/,
			],
			[
				{ reference: { uploadId: upload.id }, action: "upscale" },
				/^reference of upscale must be an image of a generation/,
			],
			[{ reference: ofParent(), action: "edit" }, /^Prompt is required/],
			[
				{ reference: ofParent(), prompt: "x", model: "plain" },
				/^reference is not taken by this model/,
			],
			[
				{ reference: ofParent(), action: "vary-subtle", model: "plain" },
				/^reference is not taken by this model/,
			],
			[
				{ reference: ofParent(), action: "vary-subtle", strength: 0.5 },
				/^strength is not taken by vary-subtle/,
			],
			[
				{ reference: ofParent(), action: "upscale", strength: 0.5 },
				/^strength is not taken by upscale/,
			],
			[{ reference: ofParent(), action: "upscale", count: 2 }, /^count must be 1 for upscale/],
			[
				{ reference: ofParent(), action: "upscale", aspectRatio: "--ar 1:1" },
				/^aspectRatio of an upscale/,
			],
			[
				{ reference: ofParent(), action: "edit", prompt: "x", factor: 2 },
				/^factor is only taken by upscale/,
			],
			[
				{ reference: ofParent(), action: "vary-subtle", model: "nope" },
				/^model "nope" is not offered/,
			],
		];
		for (const [body, message] of cases) {
			const response = await post(person.client, body);
			const said = await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
			expect({ body, said }).toEqual({ body, said: expect.stringMatching(message) });
		}
		engines.openGate();
		await waitForFinish(person.client, `/api/generations/${running}/status`);
		engines.closeGate();
	});

	it("answers 404 for another person's generation or upload as a reference, as for one that does not exist", async () => {
		const stranger = await createTestUser(server);
		const theirs = await insertTestUpload(server, stranger.userId);
		const unknown = "00000000-0000-4000-8000-000000000000";
		for (const [client, body] of [
			[stranger.client, varyBody(parent, "vary-subtle")],
			[stranger.client, { prompt: "x", reference: { generationId: parent.id, imageIndex: 0 } }],
			// The administrator may see everyone's generations, but makes images from their own only.
			[admin.client, varyBody(parent, "upscale")],
			[person.client, { prompt: "x", reference: { uploadId: theirs.id } }],
			[person.client, { prompt: "x", reference: { uploadId: unknown } }],
			[person.client, { prompt: "x", reference: { uploadId: "not-an-id" } }],
			[
				person.client,
				{ reference: { generationId: unknown, imageIndex: 0 }, action: "vary-subtle" },
			],
			[
				person.client,
				{ reference: { generationId: "not-an-id", imageIndex: 0 }, action: "upscale" },
			],
		] as const) {
			await expectErrorEnvelope(await post(client, body), 404, "NOT_FOUND");
		}
	});

	it("shows the family: what a generation was made from and what was made from it, to its owner and the administrator", async () => {
		const root = await make(person.client, {
			prompt: "a fox in the snow",
			aspectRatio: "--ar 1:1",
			count: 1,
		});
		const first = await make(person.client, varyBody(root, "vary-subtle"));
		const second = await make(person.client, varyBody(root, "upscale"));

		// A variation names no seed: it gets a new one.
		expect(first.settings.seed).not.toBe(root.settings.seed);
		const family = await readFamily(person.client, root.id);
		expect(family.parent).toBeNull();
		expect(family.children.map((child) => child.id)).toEqual([second.id, first.id]);
		expect(family.children[0]).toEqual(await readGeneration(person.client, second.id));
		const ofChild = await readFamily(person.client, first.id);
		expect(ofChild.parent).toEqual({ ...root, childrenCount: 2 });
		expect(ofChild.children).toEqual([]);

		const page = GenerationPageSchema.parse(
			await (await person.client.request("/api/generations?q=a%20fox%20in%20the%20snow")).json(),
		);
		const listed = new Map(page.items.map((item) => [item.id, item]));
		expect(listed.get(root.id)).toMatchObject({ parent: null, childrenCount: 2 });
		expect(listed.get(first.id)?.parent).toEqual({
			generationId: root.id,
			imageIndex: 0,
			action: "vary-subtle",
			exists: true,
		});
		const plain = GenerationPageSchema.parse(
			await (await person.client.request("/api/generations?limit=100")).json(),
		);
		expect(plain.items.find((item) => item.id === root.id)?.childrenCount).toBe(2);

		const stranger = await createTestUser(server);
		const refused = await stranger.client.request(`/api/generations/${root.id}/family`);
		await expectErrorEnvelope(refused, 404, "NOT_FOUND");
		const seen = await readFamily(admin.client, root.id);
		expect(seen.children.map((child) => child.owner_email)).toEqual([person.email, person.email]);
	});

	it("lists what was made from one image when asked for it, and refuses an image index that names none", async () => {
		const root = await make(person.client, {
			prompt: "two herons at a pond",
			aspectRatio: "--ar 1:1",
			count: 2,
		});
		const ofFirst = await make(person.client, varyBody(root, "vary-subtle", 0));
		const ofSecond = await make(person.client, varyBody(root, "vary-strong", 1));
		const upscaled = await make(person.client, varyBody(root, "upscale", 1));

		const ids = (family: { children: Generation[] }) => family.children.map((child) => child.id);
		expect(ids(await readFamily(person.client, root.id))).toEqual([
			upscaled.id,
			ofSecond.id,
			ofFirst.id,
		]);
		expect(ids(await readFamily(person.client, root.id, "?imageIndex=0"))).toEqual([ofFirst.id]);
		const second = await readFamily(person.client, root.id, "?imageIndex=1");
		expect(ids(second)).toEqual([upscaled.id, ofSecond.id]);
		expect(second.children[0]).toEqual(await readGeneration(person.client, upscaled.id));
		// The parent's part is the same whichever of its images is asked for.
		expect((await readFamily(person.client, ofSecond.id, "?imageIndex=3")).parent?.id).toBe(
			root.id,
		);
		expect(ids(await readFamily(admin.client, root.id, "?imageIndex=0"))).toEqual([ofFirst.id]);

		for (const [search, message] of [
			["?imageIndex=2", /^imageIndex must be from 0 to 1 for this generation/],
			["?imageIndex=-1", /^imageIndex must be a whole number from 0/],
			["?imageIndex=1.5", /^imageIndex must be a whole number from 0/],
			["?imageIndex=100", /^imageIndex must be a whole number from 0/],
			["?imageIndex=", /^imageIndex must be a whole number from 0/],
			["?imageIndex=first", /^imageIndex must be a whole number from 0/],
		] as const) {
			const said = await expectErrorEnvelope(
				await person.client.request(`/api/generations/${root.id}/family${search}`),
				400,
				"VALIDATION_ERROR",
			);
			expect({ search, said }).toEqual({ search, said: expect.stringMatching(message) });
		}
		// Someone else's generation is not found, whichever image is asked for.
		const stranger = await createTestUser(server);
		await expectErrorEnvelope(
			await stranger.client.request(`/api/generations/${root.id}/family?imageIndex=0`),
			404,
			"NOT_FOUND",
		);
	});

	it("reads one image's children from the children's index, in the order it lists them", async () => {
		const owner = await createTestUser(server);
		const parentId = "00000000-0000-4000-8000-00000000fa01";
		// A parent with many children, shaped like real rows, spread over its four images, beside
		// the rest of the history: enough that reading them all would cost more than the index.
		await sql`
			insert into generations (id, user_id, prompt, aspect_ratio, status, provider, model_id, model_label,
				images, action, parent_generation_id, parent_image_index, created_at, updated_at)
			select gen_random_uuid(), ${owner.userId}, 'child ' || g, '--ar 1:1', 'completed', 'local',
				'local', 'Offline engine', '[]'::jsonb, 'vary-subtle', ${parentId}::uuid, g % 4,
				now() - g * interval '1 minute', now()
			from generate_series(1, 4000) as g`.execute(server.database.db);
		await sql`analyze generations`.execute(server.database.db);

		const queries: CompiledQuery[] = [];
		const logged = new Kysely<DatabaseSchema>({
			dialect: new PostgresDialect({ pool: server.database.pool }),
			log: (event) => {
				if (event.level === "query") queries.push(event.query);
			},
		});
		const children = await selectChildren(logged, {
			parentId,
			imageIndex: 2,
			userId: owner.userId,
			limit: 50,
			isOwnerShown: false,
		});
		expect(children).toHaveLength(50);
		expect(children.every((child) => child.parent_image_index === 2)).toBe(true);
		expect(children[0]?.prompt).toBe("child 2");

		const [query] = queries;
		if (!query) throw new Error("no query was made");
		const plan = await server.database.pool.query(`explain ${query.sql}`, [...query.parameters]);
		const text = plan.rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
		// The parent and the image both in the index's condition, and no sort: the index's order.
		expect(text).toMatch(
			/Index Scan using generations_children[\s\S]*Index Cond: \(\(parent_generation_id = .*\) AND \(parent_image_index = /,
		);
		expect(text).not.toMatch(/\bSort\b/);
	});

	it("keeps a child whole when its parent is deleted: the parent shows as deleted, the child's images and copy stay", async () => {
		const root = await make(person.client, {
			prompt: "a red barn",
			aspectRatio: "--ar 3:2",
			count: 1,
		});
		const child = await make(person.client, varyBody(root, "vary-strong"));
		const deleted = await person.client.request(`/api/generations/${root.id}?permanent=true`, {
			method: "DELETE",
		});
		expect(deleted.status).toBe(200);

		const after = await readGeneration(person.client, child.id);
		expect(after.parent).toEqual({
			generationId: root.id,
			imageIndex: 0,
			action: "vary-strong",
			exists: false,
		});
		expect(after.images).toEqual(child.images);
		for (const image of after.images) await readImage(person.client, image.url);
		expect((await readFamily(person.client, child.id)).parent).toBeNull();
		expect(await listKeys(server.storage, `generations/${root.id}/`)).toEqual([]);
		expect(
			(await listKeys(server.storage, `generations/${child.id}/`)).filter((key) =>
				key.includes("/reference."),
			),
		).toEqual([`generations/${child.id}/reference.jpg`]);
	});

	it("completes a child still running when its parent is deleted: it runs from its own copy", async () => {
		const root = await make(person.client, {
			prompt: "a windmill",
			aspectRatio: "--ar 1:1",
			count: 1,
		});
		engines.closeGate();
		const childId = await create(person.client, {
			...varyBody(root, "vary-subtle"),
			model: "gated",
		});
		await waitUntilStarted(person.client, childId);
		const deleted = await person.client.request(`/api/generations/${root.id}?permanent=true`, {
			method: "DELETE",
		});
		expect(deleted.status).toBe(200);
		engines.openGate();

		const poll = await waitForFinish(person.client, `/api/generations/${childId}/status`);
		expect(poll.status).toBe("completed");
		const child = await readGeneration(person.client, childId);
		expect(child.images).toHaveLength(4);
		expect(child.parent).toMatchObject({ generationId: root.id, exists: false });
	});

	it("applies the quotas to a variation, and a refused one leaves no copy behind", async () => {
		const someone = await createTestUser(server);
		const root = await make(someone.client, {
			prompt: "a tram",
			aspectRatio: "--ar 1:1",
			count: 1,
		});
		await sql`update people set daily_limit = 1 where user_id = ${someone.userId}`.execute(
			server.database.db,
		);
		const refused = await post(someone.client, varyBody(root, "vary-subtle"));
		await expectErrorEnvelope(refused, 429, "QUOTA_EXCEEDED");
		const generations = await server.database.db
			.selectFrom("generations")
			.select("id")
			.where("user_id", "=", someone.userId)
			.execute();
		expect(generations.map((row) => row.id)).toEqual([root.id]);
		// Every stored object belongs to a generation that exists: the refused one copied nothing.
		const keys = await listKeys(server.storage, "generations/");
		const owned = new Set(
			(await server.database.db.selectFrom("generations").select("id").execute()).map(
				(row) => row.id,
			),
		);
		expect(keys.filter((key) => !owned.has(key.split("/")[1] ?? ""))).toEqual([]);
	});

	it("removes the copy when the generation's row cannot be written", async () => {
		// The database refuses this one row, after the copy was written: nothing may stay behind.
		await sql`
			create or replace function refuse_marked_generation() returns trigger language plpgsql as $$
			begin
				raise exception 'refused by the test';
			end $$`.execute(server.database.db);
		await sql`
			create trigger refuse_marked_generation before insert on generations
			for each row when (new.prompt = 'a row the database refuses')
			execute function refuse_marked_generation()`.execute(server.database.db);
		try {
			const response = await post(person.client, {
				prompt: "a row the database refuses",
				reference: { generationId: parent.id, imageIndex: 0 },
			});
			await expectErrorEnvelope(response, 500, "UNKNOWN_ERROR");
		} finally {
			await sql`drop trigger refuse_marked_generation on generations`.execute(server.database.db);
		}
		const keys = await listKeys(server.storage, "generations/");
		const owned = new Set(
			(await server.database.db.selectFrom("generations").select("id").execute()).map(
				(row) => row.id,
			),
		);
		expect(keys.filter((key) => !owned.has(key.split("/")[1] ?? ""))).toEqual([]);
	});

	it("keeps the copy through the stray-object sweep, and removes it with its generation", async () => {
		const child = await make(person.client, varyBody(parent, "vary-subtle"));
		const reference = `generations/${child.id}/reference.jpg`;
		await sweepStrayObjects({ db: server.database.db, storage: server.storage });
		expect(
			(await listKeys(server.storage, `generations/${child.id}/`)).filter((key) =>
				key.includes("/reference."),
			),
		).toEqual([reference]);

		const deleted = await person.client.request(`/api/generations/${child.id}?permanent=true`, {
			method: "DELETE",
		});
		expect(deleted.status).toBe(200);
		expect(await listKeys(server.storage, `generations/${child.id}/`)).toEqual([]);
	});

	it("deletes a deleted account's generations made from images with its others, copies and all", async () => {
		const someone = await createTestUser(server);
		const root = await make(someone.client, {
			prompt: "a kite",
			aspectRatio: "--ar 1:1",
			count: 1,
		});
		const child = await make(someone.client, varyBody(root, "vary-strong"));
		const deleted = await someone.client.request("/api/account/delete", {
			method: "POST",
			json: { email: someone.email },
		});
		expect(deleted.status).toBe(200);
		const rows = await server.database.db
			.selectFrom("generations")
			.select("id")
			.where("id", "in", [root.id, child.id])
			.execute();
		expect(rows).toEqual([]);
		expect(await listKeys(server.storage, `generations/${root.id}/`)).toEqual([]);
		expect(await listKeys(server.storage, `generations/${child.id}/`)).toEqual([]);
	});

	it("answers an Idempotency-Key again for the same variation and refuses it for another", async () => {
		const key = { "idempotency-key": `vary-${kind}-${Date.now()}` };
		const first = await post(person.client, varyBody(parent, "vary-subtle"), key);
		expect(first.status).toBe(201);
		const again = await post(person.client, varyBody(parent, "vary-subtle"), key);
		expect(again.headers.get("idempotent-replayed")).toBe("true");
		const firstId = CreateGenerationResponseSchema.parse(await first.json());
		const againId = CreateGenerationResponseSchema.parse(await again.json());
		expect(firstId).toEqual(againId);
		const other = await post(person.client, varyBody(parent, "vary-strong"), key);
		await expectErrorEnvelope(other, 422, "IDEMPOTENCY_KEY_REUSED");
		if (firstId.success) await waitForFinish(person.client, firstId.pollingUrl);
	});
});
