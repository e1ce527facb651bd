import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { CreateGenerationResponseSchema } from "../../shared/generations/generations";
import { BoardListSchema } from "../../shared/history/boards";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { makeBoard, putOnBoard, readBoardPage } from "../testing/board-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { minutesAgo, seedGeneration } from "../testing/history-kit";
import { readZip } from "../testing/read-zip";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";

describe.each(availableDatabaseKinds())("boards through the API on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
	});
	afterAll(async () => {
		await server.close();
	});

	const start = (client: Awaited<ReturnType<typeof createTestUser>>["client"], boards: unknown) =>
		client.request("/api/generations", {
			method: "POST",
			json: { prompt: "A lighthouse at dusk", aspectRatio: "--ar 1:1", count: 1, boards },
		});

	it("puts a new generation on the boards it was started with, in the transaction that makes it", async () => {
		const person = await createTestUser(server);
		const sea = await makeBoard(person.client, { name: "Sea" });
		const coast = await makeBoard(person.client, { name: "Coast" });
		const untouched = await makeBoard(person.client, { name: "Untouched" });
		const response = await start(person.client, [sea.id, coast.id.toUpperCase()]);
		expect(response.status).toBe(201);
		const created = CreateGenerationResponseSchema.parse(await response.json());
		if (!created.success) throw new Error("not created");
		for (const board of [sea, coast]) {
			expect((await readBoardPage(person.client, board.id)).items.map((item) => item.id)).toEqual([
				created.id,
			]);
		}
		expect((await readBoardPage(person.client, untouched.id)).total).toBe(0);
	});

	it("refuses a board that is not the person's own (shared or not) or a smart board, naming `boards`, and makes nothing", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const own = await makeBoard(person.client);
		const shared = await makeBoard(other.client, { visibility: "shared" });
		const smart = await makeBoard(person.client, { query: { q: "lighthouse" } });
		for (const board of [shared.id, smart.id, crypto.randomUUID(), "not-a-board"]) {
			const message = await expectErrorEnvelope(
				await start(person.client, [own.id, board]),
				404,
				"NOT_FOUND",
			);
			expect(message).toContain("boards");
		}
		const badList = await start(person.client, "everything");
		expect(await expectErrorEnvelope(badList, 400, "VALIDATION_ERROR")).toContain("boards");
		const history = await person.client.request("/api/generations");
		expect(((await history.json()) as { total: number }).total).toBe(0);
		expect((await readBoardPage(person.client, own.id)).total).toBe(0);
	});

	it("lets `read` see boards, `organize` change them, and `generate` do neither", async () => {
		const person = await createTestUser(server);
		const generation = await seedGeneration(server, { userId: person.userId, prompt: "scripted" });
		const read = (await createToken(person, ["read"])).token;
		const organize = (await createToken(person, ["organize"])).token;
		const generate = (await createToken(person, ["generate"])).token;

		const made = await callWithToken(server, organize, "/api/boards", {
			method: "POST",
			json: { name: "From a script" },
		});
		expect(made.status).toBe(201);
		const { id } = (await made.json()) as { id: string };
		const added = await callWithToken(server, organize, `/api/boards/${id}/generations`, {
			method: "POST",
			json: { ids: [generation.id] },
		});
		expect(await added.json()).toEqual({ success: true, changed: 1 });

		const listed = await callWithToken(server, read, "/api/boards");
		// Its own, beside the boards others share on this server.
		const own = z
			.parse(BoardListSchema, await listed.json())
			.items.filter((board) => board.owner.email === person.email);
		expect(own.map((board) => [board.id, board.count])).toEqual([[id, 1]]);
		const page = await callWithToken(server, read, `/api/generations?board=${id}`);
		expect(page.status).toBe(200);
		for (const token of [read, generate]) {
			await expectErrorEnvelope(
				await callWithToken(server, token, `/api/boards/${id}`, {
					method: "PATCH",
					json: { name: "Not allowed" },
				}),
				403,
				"TOKEN_SCOPE_MISSING",
			);
		}
		await expectErrorEnvelope(
			await callWithToken(server, generate, "/api/boards"),
			403,
			"TOKEN_SCOPE_MISSING",
		);
		await expectErrorEnvelope(
			await callWithToken(server, organize, "/api/generations"),
			403,
			"TOKEN_SCOPE_MISSING",
		);
	});

	it("zips what a board shows, with recipes, for whoever may see it", async () => {
		const owner = await createTestUser(server);
		const viewer = await createTestUser(server);
		const onBoard = await seedGeneration(server, {
			userId: owner.userId,
			prompt: "zipped lighthouse",
			imageCount: 2,
			createdAt: minutesAgo(2),
		});
		await seedGeneration(server, { userId: owner.userId, prompt: "left out", imageCount: 1 });
		const board = await makeBoard(owner.client, { name: "Lighthouses, 2026" });
		await putOnBoard(owner.client, board.id, [onBoard.id]);

		const response = await owner.client.request(`/api/boards/${board.id}/archive`);
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toBe("application/zip");
		expect(response.headers.get("content-disposition")).toContain("lighthouses-2026.zip");
		const files = await readZip(new Uint8Array(await response.arrayBuffer()));
		const names = [...files.keys()].sort();
		expect(names).toHaveLength(3);
		expect(names.every((name) => name.includes("zipped-lighthouse"))).toBe(true);
		const metadata = names.find((name) => name.endsWith("generation.json")) ?? "";
		expect(JSON.parse(files.get(metadata)?.toString("utf8") ?? "{}")).toMatchObject({
			id: onBoard.id,
			prompt: "zipped lighthouse",
		});
		// The originals carry their recipe, as the history's ZIPs do.
		const image = names.find((name) => name.endsWith(".png")) ?? "";
		expect(files.get(image)?.includes(Buffer.from("parameters"))).toBe(true);

		await expectErrorEnvelope(
			await viewer.client.request(`/api/boards/${board.id}/archive`),
			404,
			"NOT_FOUND",
		);
		await owner.client.request(`/api/boards/${board.id}`, {
			method: "PATCH",
			json: { visibility: "shared" },
		});
		expect((await viewer.client.request(`/api/boards/${board.id}/archive`)).status).toBe(200);
	});
});
