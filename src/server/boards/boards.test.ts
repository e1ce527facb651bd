import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/mini";
import {
	BOARD_LIMIT_MESSAGE,
	BoardListSchema,
	BoardSchema,
	MAX_BOARDS_PER_PERSON,
} from "../../shared/history/boards";
import { makeBoard, putOnBoard, readBoardPage } from "../testing/board-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { minutesAgo, seedGeneration } from "../testing/history-kit";
import { readZip } from "../testing/read-zip";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../testing/test-server";

type Person = Awaited<ReturnType<typeof createTestUser>>;

async function listBoards(client: TestClient) {
	const response = await client.request("/api/boards");
	expect(response.status).toBe(200);
	return z.parse(BoardListSchema, await response.json()).items;
}

describe.each(availableDatabaseKinds())("boards on %s", (kind) => {
	let server: TestServer;
	let admin: Person;

	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
		admin = await createTestAdministrator(server);
	});
	afterAll(async () => {
		await server.close();
	});

	const seed = (
		person: Person,
		prompt: string,
		options: Omit<Parameters<typeof seedGeneration>[1], "userId" | "prompt"> = {},
	) => seedGeneration(server, { userId: person.userId, prompt, imageCount: 1, ...options });

	it("makes, renames and deletes a board; a generation may be on several, and leaving one keeps it", async () => {
		const person = await createTestUser(server);
		const first = await seed(person, "a lighthouse", { createdAt: minutesAgo(3) });
		const second = await seed(person, "a harbour", { createdAt: minutesAgo(2) });
		const sea = await makeBoard(person.client, { name: "  Sea  " });
		const coast = await makeBoard(person.client, { name: "Coast" });
		expect(sea).toMatchObject({
			name: "Sea",
			kind: "board",
			visibility: "private",
			count: 0,
			coverUrl: null,
			owner: { email: person.email },
			canChange: true,
		});

		const added = await putOnBoard(person.client, sea.id, [first.id, second.id, first.id]);
		expect(await added.json()).toEqual({ success: true, changed: 2 });
		// Again: those already on it stay, nothing is added twice.
		expect(await (await putOnBoard(person.client, sea.id, [first.id])).json()).toEqual({
			success: true,
			changed: 0,
		});
		await putOnBoard(person.client, coast.id, [first.id]);

		const boards = await listBoards(person.client);
		const listedSea = boards.find((board) => board.id === sea.id);
		expect(listedSea?.count).toBe(2);
		// Its cover is its newest image while none is a favourite.
		expect(listedSea?.coverUrl).toBe(`/api/images/${second.images[0]?.thumbnailKey}`);
		expect(Date.parse(listedSea?.updatedAt ?? "")).toBeGreaterThan(Date.parse(sea.updatedAt) - 1);
		expect(boards.find((board) => board.id === coast.id)?.count).toBe(1);

		const removed = await person.client.request(`/api/boards/${sea.id}/generations/remove`, {
			method: "POST",
			json: { ids: [first.id] },
		});
		expect(await removed.json()).toEqual({ success: true, changed: 1 });
		expect((await readBoardPage(person.client, sea.id)).items.map((item) => item.id)).toEqual([
			second.id,
		]);
		// Still in the history and on the other board.
		expect((await readBoardPage(person.client, coast.id)).items.map((item) => item.id)).toEqual([
			first.id,
		]);

		const renamed = await person.client.request(`/api/boards/${sea.id}`, {
			method: "PATCH",
			json: { name: "Open sea" },
		});
		expect(z.parse(BoardSchema, await renamed.json()).name).toBe("Open sea");

		const deleted = await person.client.request(`/api/boards/${sea.id}`, { method: "DELETE" });
		expect(await deleted.json()).toEqual({ success: true, deletedGenerations: 0 });
		expect((await listBoards(person.client)).map((board) => board.id)).toEqual([coast.id]);
		// Board only: its generations stay.
		expect((await person.client.request(`/api/generations/${second.id}`)).status).toBe(200);
	});

	it("covers a board with its newest favourite, before newer images", async () => {
		const person = await createTestUser(server);
		const favourite = await seed(person, "starred", { createdAt: minutesAgo(5), isFavorite: true });
		const newer = await seed(person, "newer", { createdAt: minutesAgo(1) });
		const board = await makeBoard(person.client);
		await putOnBoard(person.client, board.id, [newer.id, favourite.id]);
		const listed = (await listBoards(person.client)).find((entry) => entry.id === board.id);
		expect(listed?.coverUrl).toBe(`/api/images/${favourite.images[0]?.thumbnailKey}`);
	});

	it("refuses bad names and visibilities naming the field, and more boards than the cap", async () => {
		const person = await createTestUser(server);
		const bad = [
			[{ name: "" }, "name"],
			[{ name: "x".repeat(81) }, "name"],
			[{ name: "ok", visibility: "public" }, "visibility"],
			[{ name: "ok", query: { aspectRatio: "--ar 5:1" } }, "query.aspectRatio"],
			[{ name: "ok", query: { from: "2026-02-30" } }, "query.from"],
		] as const;
		for (const [json, field] of bad) {
			const response = await person.client.request("/api/boards", { method: "POST", json });
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toContain(field);
		}
		expect(await listBoards(person.client)).toEqual([]);

		await server.database.db
			.insertInto("boards")
			.values(
				Array.from({ length: MAX_BOARDS_PER_PERSON }, (_, index) => ({
					id: crypto.randomUUID(),
					user_id: person.userId,
					name: `Board ${index}`,
					kind: "board" as const,
					query: null,
				})),
			)
			.execute();
		const beyond = await person.client.request("/api/boards", {
			method: "POST",
			json: { name: "One more" },
		});
		expect(await expectErrorEnvelope(beyond, 400, "VALIDATION_ERROR")).toBe(BOARD_LIMIT_MESSAGE);
	});

	it("puts only the owner's generations on a board, all or none", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const own = await seed(person, "mine");
		const theirs = await seed(other, "theirs");
		const board = await makeBoard(person.client);
		await expectErrorEnvelope(
			await putOnBoard(person.client, board.id, [own.id, theirs.id]),
			404,
			"NOT_FOUND",
		);
		await expectErrorEnvelope(
			await putOnBoard(person.client, board.id, ["not-an-id"]),
			404,
			"NOT_FOUND",
		);
		expect((await readBoardPage(person.client, board.id)).total).toBe(0);
	});

	it("hides a private board from everyone but its owner and the administrator", async () => {
		const owner = await createTestUser(server);
		const stranger = await createTestUser(server);
		const generation = await seed(owner, "private work");
		const board = await makeBoard(owner.client, { name: "Private" });
		await putOnBoard(owner.client, board.id, [generation.id]);

		expect((await listBoards(stranger.client)).map((entry) => entry.id)).not.toContain(board.id);
		for (const [path, init] of [
			[`/api/generations?board=${board.id}`, {}],
			[`/api/boards/${board.id}/archive`, {}],
			[`/api/boards/${board.id}`, { method: "PATCH", json: { name: "Mine now" } }],
			[`/api/boards/${board.id}`, { method: "DELETE" }],
			[
				`/api/boards/${board.id}/generations/remove`,
				{ method: "POST", json: { ids: [generation.id] } },
			],
		] as const) {
			await expectErrorEnvelope(await stranger.client.request(path, init), 404, "NOT_FOUND");
		}
		const image = generation.images[0]?.key ?? "";
		expect((await stranger.client.request(`/api/images/${image}`)).status).toBe(404);

		// The administrator sees and changes anyone's.
		expect((await readBoardPage(admin.client, board.id)).items.map((item) => item.id)).toEqual([
			generation.id,
		]);
		const renamed = await admin.client.request(`/api/boards/${board.id}`, {
			method: "PATCH",
			json: { name: "Moderated" },
		});
		expect(renamed.status).toBe(200);
		expect(z.parse(BoardSchema, await renamed.json())).toMatchObject({
			name: "Moderated",
			owner: { email: owner.email },
		});
	});

	it("shows a shared board read-only to everyone signed in: its generations and their images, nothing else", async () => {
		const owner = await createTestUser(server);
		const viewer = await createTestUser(server);
		const onBoard = await seed(owner, "shared lighthouse", { createdAt: minutesAgo(2) });
		const offBoard = await seed(owner, "private harbour", { createdAt: minutesAgo(1) });
		const board = await makeBoard(owner.client, { name: "Shared", visibility: "shared" });
		await putOnBoard(owner.client, board.id, [onBoard.id]);

		const listed = (await listBoards(viewer.client)).find((entry) => entry.id === board.id);
		expect(listed).toMatchObject({ owner: { email: owner.email }, canChange: false, count: 1 });
		const page = await readBoardPage(viewer.client, board.id);
		expect(page.items.map((item) => item.id)).toEqual([onBoard.id]);
		expect(page.total).toBe(1);

		// Its images load for the viewer, those of a generation not on it do not.
		for (const image of onBoard.images) {
			expect((await viewer.client.request(`/api/images/${image.key}`)).status).toBe(200);
			expect((await viewer.client.request(`/api/images/${image.thumbnailKey}`)).status).toBe(200);
		}
		const download = await viewer.client.request(
			`/api/generations/${onBoard.id}/images/0/download`,
		);
		expect(download.status).toBe(200);
		expect((await viewer.client.request(`/api/images/${offBoard.images[0]?.key}`)).status).toBe(
			404,
		);
		// Only its images: the generation itself, its family and its changes stay the owner's.
		for (const [path, init] of [
			[`/api/generations/${onBoard.id}`, {}],
			[`/api/generations/${onBoard.id}/family`, {}],
			[`/api/generations/${onBoard.id}/favorite`, { method: "PUT", json: { favorite: true } }],
			[`/api/generations/${onBoard.id}`, { method: "DELETE" }],
		] as const) {
			expect((await viewer.client.request(path, init)).status, path).toBe(404);
		}

		for (const [path, init] of [
			[`/api/boards/${board.id}`, { method: "PATCH", json: { name: "Taken" } }],
			[`/api/boards/${board.id}`, { method: "DELETE" }],
			[`/api/boards/${board.id}/generations`, { method: "POST", json: { ids: [offBoard.id] } }],
			[
				`/api/boards/${board.id}/generations/remove`,
				{ method: "POST", json: { ids: [onBoard.id] } },
			],
		] as const) {
			await expectErrorEnvelope(await viewer.client.request(path, init), 403, "BOARD_READ_ONLY");
		}
		expect((await readBoardPage(owner.client, board.id)).total).toBe(1);

		// Made private again, it is gone for the viewer, and so are its images.
		await owner.client.request(`/api/boards/${board.id}`, {
			method: "PATCH",
			json: { visibility: "private" },
		});
		await expectErrorEnvelope(
			await viewer.client.request(`/api/generations?board=${board.id}`),
			404,
			"NOT_FOUND",
		);
		expect((await viewer.client.request(`/api/images/${onBoard.images[0]?.key}`)).status).toBe(404);
	});

	it("filters a board's page with the history's search, ratio, favourites and days, counted", async () => {
		const person = await createTestUser(server);
		const wide = await seed(person, "lighthouse wide", {
			aspectRatio: "--ar 16:9",
			isFavorite: true,
		});
		const square = await seed(person, "lighthouse square", { createdAt: minutesAgo(1) });
		const harbour = await seed(person, "harbour", { createdAt: minutesAgo(2) });
		const old = await seed(person, "old lighthouse", {
			createdAt: new Date("2026-01-15T12:00:00Z"),
		});
		await seed(person, "lighthouse not on the board");
		const board = await makeBoard(person.client);
		await putOnBoard(person.client, board.id, [wide.id, square.id, harbour.id, old.id]);

		const ids = async (query: Record<string, string>) =>
			(await readBoardPage(person.client, board.id, query)).items.map((item) => item.id);
		expect(await ids({})).toEqual([wide.id, square.id, harbour.id, old.id]);
		expect(await ids({ q: "LIGHT" })).toEqual([wide.id, square.id, old.id]);
		expect(await ids({ ratio: "--ar 16:9" })).toEqual([wide.id]);
		expect(await ids({ favorites: "true" })).toEqual([wide.id]);
		expect(await ids({ from: "2026-01-15", to: "2026-01-15" })).toEqual([old.id]);
		const counted = await readBoardPage(person.client, board.id, { q: "lighthouse" });
		expect({ total: counted.total, today: counted.today }).toEqual({ total: 3, today: 2 });
		// Page by page, the cursor continuing the board's own listing.
		const first = await readBoardPage(person.client, board.id, { limit: "2" });
		const next = await readBoardPage(person.client, board.id, {
			limit: "2",
			cursor: first.nextCursor ?? "",
		});
		expect([...first.items, ...next.items].map((item) => item.id)).toEqual([
			wide.id,
			square.id,
			harbour.id,
			old.id,
		]);
		expect(next.nextCursor).toBeNull();
		const badDay = await person.client.request(`/api/generations?from=2026-13-01`);
		expect(await expectErrorEnvelope(badDay, 400, "VALIDATION_ERROR")).toContain("from");
	});

	it("keeps a smart board current: its saved search over the owner's history, the page's filters inside it", async () => {
		const person = await createTestUser(server);
		await seed(person, "lighthouse, plain");
		const starred = await seed(person, "lighthouse, starred", { isFavorite: true });
		await seed(person, "harbour, starred", { isFavorite: true });
		const smart = await makeBoard(person.client, {
			name: "Starred lighthouses",
			query: { q: "lighthouse", favorites: true },
		});
		expect(smart).toMatchObject({
			kind: "smart",
			count: 1,
			query: { q: "lighthouse", favorites: true },
		});
		expect((await readBoardPage(person.client, smart.id)).items.map((item) => item.id)).toEqual([
			starred.id,
		]);

		// Always current: a new match is on it at once.
		const later = await seed(person, "another lighthouse", { isFavorite: true });
		expect((await readBoardPage(person.client, smart.id)).items.map((item) => item.id)).toEqual([
			later.id,
			starred.id,
		]);
		expect((await listBoards(person.client)).find((board) => board.id === smart.id)?.count).toBe(2);
		// The page's own search narrows it.
		expect(
			(await readBoardPage(person.client, smart.id, { q: "another" })).items.map((item) => item.id),
		).toEqual([later.id]);

		// Its search changes; a board's does not exist, and nothing is put on a smart board.
		const changed = await person.client.request(`/api/boards/${smart.id}`, {
			method: "PATCH",
			json: { query: { q: "harbour" } },
		});
		expect(z.parse(BoardSchema, await changed.json()).count).toBe(1);
		const plain = await makeBoard(person.client);
		const refused = await person.client.request(`/api/boards/${plain.id}`, {
			method: "PATCH",
			json: { query: { q: "x" } },
		});
		expect(await expectErrorEnvelope(refused, 400, "VALIDATION_ERROR")).toContain("query");
		await expectErrorEnvelope(
			await putOnBoard(person.client, smart.id, [later.id]),
			400,
			"VALIDATION_ERROR",
		);
	});

	it("deletes a board with its generations when asked, and never another person's", async () => {
		const person = await createTestUser(server);
		const kept = await seed(person, "kept");
		const onBoard = await seed(person, "on the board");
		const board = await makeBoard(person.client);
		await putOnBoard(person.client, board.id, [onBoard.id]);
		const response = await person.client.request(`/api/boards/${board.id}?withGenerations=true`, {
			method: "DELETE",
		});
		expect(await response.json()).toEqual({ success: true, deletedGenerations: 1 });
		expect((await person.client.request(`/api/generations/${onBoard.id}`)).status).toBe(404);
		expect((await person.client.request(`/api/generations/${kept.id}`)).status).toBe(200);
		expect(await listBoards(person.client)).toEqual([]);

		const smart = await makeBoard(person.client, { query: { q: "kept" } });
		const refused = await person.client.request(`/api/boards/${smart.id}?withGenerations=true`, {
			method: "DELETE",
		});
		expect(await expectErrorEnvelope(refused, 400, "VALIDATION_ERROR")).toContain(
			"withGenerations",
		);
		expect((await person.client.request(`/api/generations/${kept.id}`)).status).toBe(200);
	});

	it("lists a board's generations with the account export", async () => {
		const person = await createTestUser(server);
		const generation = await seed(person, "exported");
		const board = await makeBoard(person.client, { name: "Kept" });
		await putOnBoard(person.client, board.id, [generation.id]);
		const response = await person.client.request("/api/account/export");
		expect(response.status).toBe(200);
		const files = await readZip(new Uint8Array(await response.arrayBuffer()));
		const boards = JSON.parse(files.get("boards.json")?.toString("utf8") ?? "null");
		expect(boards).toEqual([
			expect.objectContaining({
				id: board.id,
				name: "Kept",
				kind: "board",
				visibility: "private",
				generations: [generation.id],
			}),
		]);
	});
});
