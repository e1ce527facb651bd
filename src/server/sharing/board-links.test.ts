import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	CreatedShareSchema,
	type SharedPage,
	SharedPageSchema,
} from "../../shared/history/sharing";
import { readRecipeFromImage } from "../../shared/image-recipe/image-recipe-files";
import { parsePromptBlocklist } from "../config/prompt-blocklist";
import { callWithToken, createToken, makeFinishedGeneration } from "../testing/api-token-kit";
import { makeBoard, putOnBoard } from "../testing/board-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { seedGeneration } from "../testing/history-kit";
import { createBoardShare, createVisitor, listShares, pathOf } from "../testing/share-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../testing/test-server";
import { SHARED_BOARD_PAGE_SIZE } from "./board-shares";

async function readJsonPage(visitor: TestClient, path: string): Promise<SharedPage> {
	const response = await visitor.request(path);
	expect(response.status, await response.clone().text()).toBe(200);
	return SharedPageSchema.parse(await response.json());
}

async function readHtml(visitor: TestClient, path: string, status = 200): Promise<string> {
	const response = await visitor.request(path);
	expect(response.status).toBe(status);
	expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
	return response.text();
}

/** The address an HTML link named by its text points to, as a browser would follow it. */
function hrefOf(html: string, text: string): string {
	const match = new RegExp(`href="([^"]+)"[^>]*>${text}<`).exec(html);
	if (!match?.[1]) throw new Error(`no link "${text}" in the page`);
	return match[1].replaceAll("&amp;", "&");
}

describe.each(availableDatabaseKinds())("a board's shared link on %s", (kind) => {
	let server: TestServer;
	beforeAll(async () => {
		server = await createTestServer(kind, {
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
			promptBlocklist: parsePromptBlocklist("forbidden"),
		});
	});
	afterAll(async () => {
		await server?.close();
	});

	/** A board of `count` seeded generations of one image each, oldest first in `ids`. */
	async function seedBoard(owner: Awaited<ReturnType<typeof createTestUser>>, count: number) {
		const board = await makeBoard(owner.client);
		const ids: string[] = [];
		for (let index = 0; index < count; index++) {
			const seeded = await seedGeneration(server, {
				userId: owner.userId,
				prompt: `Harbour ${index}`,
				imageCount: 1,
			});
			ids.push(seeded.id);
		}
		expect((await putOnBoard(owner.client, board.id, ids)).status).toBe(200);
		return { board, ids };
	}

	it("is made by the board's owner only, by session or a token with the share scope", async () => {
		const owner = await createTestUser(server);
		const { board } = await seedBoard(owner, 1);
		const share = await createBoardShare(owner.client, board.id);
		expect(share.target).toEqual({ generationId: null, imageIndex: null, boardId: board.id });
		expect(share.boardName).toBe(board.name);
		expect((await listShares(owner.client)).map((item) => item.boardName)).toEqual([board.name]);

		const request = {
			target: { boardId: board.id },
			expires: "1d",
			originals: false,
			showPrompt: true,
		};
		const sharing = await createToken(owner, ["share"]);
		const made = await callWithToken(server, sharing.token, "/api/shares", {
			method: "POST",
			json: request,
		});
		expect(made.status).toBe(201);
		for (const scope of ["read", "organize"] as const) {
			const other = await createToken(owner, [scope]);
			const refused = await callWithToken(server, other.token, "/api/shares", {
				method: "POST",
				json: request,
			});
			await expectErrorEnvelope(refused, 403, "TOKEN_SCOPE_MISSING");
		}

		const stranger = await createTestUser(server);
		const unknown = await stranger.client.request("/api/shares", { method: "POST", json: request });
		await expectErrorEnvelope(unknown, 404, "NOT_FOUND");
		// Shared with everyone signed in, the board is theirs to see, not to share.
		const patched = await owner.client.request(`/api/boards/${board.id}`, {
			method: "PATCH",
			json: { visibility: "shared" },
		});
		expect(patched.status).toBe(200);
		const viewing = await stranger.client.request("/api/shares", { method: "POST", json: request });
		await expectErrorEnvelope(viewing, 403, "BOARD_READ_ONLY");
		expect(await listShares(stranger.client)).toEqual([]);
	});

	it("pages through the board newest first with Older and Newer links that work without JavaScript, counting each page view once", async () => {
		const owner = await createTestUser(server);
		const { board, ids } = await seedBoard(owner, SHARED_BOARD_PAGE_SIZE + 3);
		const share = await createBoardShare(owner.client, board.id);
		const visitor = createVisitor(server);
		const path = `/api/s/${share.token}`;

		const first = await readJsonPage(visitor, path);
		expect(first.board?.name).toBe(board.name);
		expect(first.images).toHaveLength(SHARED_BOARD_PAGE_SIZE);
		expect(first.images[0]?.prompt).toBe(`Harbour ${ids.length - 1}`);
		expect(first.images[0]?.url).toBe(
			`/s/${share.token}/generations/${ids.at(-1)}/images/0/display`,
		);
		expect(first.board?.newerCursor).toBeNull();
		const older = first.board?.olderCursor;
		if (!older) throw new Error("the first page has an older page");
		const second = await readJsonPage(visitor, `${path}?after=${older}`);
		expect(second.images.map((image) => image.prompt)).toEqual([
			"Harbour 2",
			"Harbour 1",
			"Harbour 0",
		]);
		expect(second.board?.olderCursor).toBeNull();
		const newer = second.board?.newerCursor;
		if (!newer) throw new Error("the second page has a newer page");
		const back = await readJsonPage(visitor, `${path}?before=${newer}`);
		expect(back.images.map((image) => image.url)).toEqual(first.images.map((image) => image.url));
		const forged = await visitor.request(`${path}?after=not-a-cursor`);
		expect(await expectErrorEnvelope(forged, 400, "VALIDATION_ERROR")).toContain("cursor");

		// The HTML page: plain links to the older page, and the preview's → crossing to it.
		const html = await readHtml(visitor, pathOf(share));
		expect(html).toContain(`<h1>${board.name}</h1>`);
		const olderPage = await readHtml(visitor, hrefOf(html, "Older →"));
		expect(olderPage).toContain('alt="Image 3 of 3: Harbour 0"');
		const lastPreview = await readHtml(
			visitor,
			`${pathOf(share)}?image=${SHARED_BOARD_PAGE_SIZE - 1}`,
		);
		const crossed = await readHtml(visitor, hrefOf(lastPreview, "Next →"));
		expect(crossed).toContain('alt="Image 1 of 3: Harbour 2"');
		const crossedBack = await readHtml(visitor, hrefOf(crossed, "← Previous"));
		expect(crossedBack).toContain(
			`alt="Image ${SHARED_BOARD_PAGE_SIZE} of ${SHARED_BOARD_PAGE_SIZE}: Harbour 3"`,
		);
		const newerPage = await readHtml(visitor, hrefOf(olderPage, "← Newer"));
		expect(newerPage).toContain(`Harbour ${ids.length - 1}`);
		// Images are not views; pages are, once each: 3 JSON and 6 HTML pages (the refused one is not).
		await visitor.request(first.images[0]?.url ?? "");
		const [listed] = await listShares(owner.client);
		expect(listed?.views).toBe(9);
	});

	it("never shows or serves a generation whose prompt the blocklist refuses, put on the board after the link was made", async () => {
		const owner = await createTestUser(server);
		const { board, ids } = await seedBoard(owner, SHARED_BOARD_PAGE_SIZE + 3);
		const share = await createBoardShare(owner.client, board.id);
		// Made before the blocklist named its word (a seeded row skips the check), put on later.
		const blocked: string[] = [];
		for (let index = 0; index < 3; index++) {
			const seeded = await seedGeneration(server, {
				userId: owner.userId,
				prompt: `A FORBIDDEN harbour ${index}`,
				imageCount: 1,
			});
			blocked.push(seeded.id);
		}
		expect((await putOnBoard(owner.client, board.id, blocked)).status).toBe(200);
		const visitor = createVisitor(server);
		const path = `/api/s/${share.token}`;

		const first = await readJsonPage(visitor, path);
		expect(first.images.map((image) => image.prompt)).toEqual(
			ids
				.slice(3)
				.reverse()
				.map((_, index) => `Harbour ${ids.length - 1 - index}`),
		);
		const second = await readJsonPage(visitor, `${path}?after=${first.board?.olderCursor}`);
		expect(second.images.map((image) => image.prompt)).toEqual([
			"Harbour 2",
			"Harbour 1",
			"Harbour 0",
		]);
		expect(second.board?.olderCursor).toBeNull();
		const back = await readJsonPage(visitor, `${path}?before=${second.board?.newerCursor}`);
		expect(back.images.map((image) => image.url)).toEqual(first.images.map((image) => image.url));
		expect(back.board?.newerCursor).toBeNull();

		const html = await readHtml(visitor, pathOf(share));
		expect(html.toLowerCase()).not.toContain("forbidden");
		for (const id of blocked) {
			await expectErrorEnvelope(
				await visitor.request(`/s/${share.token}/generations/${id}/images/0/display`),
				404,
				"NOT_FOUND",
			);
		}
	});

	it("no longer shows or serves a generation taken off the board or moved to the Trash, takes a new link, and ends with the board", async () => {
		const owner = await createTestUser(server);
		const { board, ids } = await seedBoard(owner, 3);
		const [removed, trashed, kept] = ids as [string, string, string];
		const share = await createBoardShare(owner.client, board.id);
		const visitor = createVisitor(server);
		const before = await readJsonPage(visitor, `/api/s/${share.token}`);
		const urlOf = (id: string) =>
			before.images.find((image) => image.url.includes(id))?.url ?? "missing";
		for (const id of ids) expect((await visitor.request(urlOf(id))).status).toBe(200);

		const taken = await owner.client.request(`/api/boards/${board.id}/generations/remove`, {
			method: "POST",
			json: { ids: [removed] },
		});
		expect(taken.status).toBe(200);
		const deleted = await owner.client.request(`/api/generations/${trashed}`, {
			method: "DELETE",
		});
		expect(deleted.status).toBe(200);
		const after = await readJsonPage(visitor, `/api/s/${share.token}`);
		expect(after.images.map((image) => image.url)).toEqual([urlOf(kept)]);
		await expectErrorEnvelope(await visitor.request(urlOf(removed)), 404, "NOT_FOUND");
		await expectErrorEnvelope(await visitor.request(urlOf(trashed)), 404, "NOT_FOUND");
		// A generation's own file address does not open through a board's link.
		await expectErrorEnvelope(
			await visitor.request(`/s/${share.token}/images/0/display`),
			404,
			"NOT_FOUND",
		);

		// New link: the same board under a new address; the old one has ended.
		const rotated = await owner.client.request(`/api/shares/${share.id}/rotate`, {
			method: "POST",
		});
		expect(rotated.status).toBe(201);
		const renewed = CreatedShareSchema.parse(await rotated.json());
		expect(renewed.target.boardId).toBe(board.id);
		await expectErrorEnvelope(await visitor.request(`/api/s/${share.token}`), 410, "SHARE_ENDED");
		expect((await readJsonPage(visitor, `/api/s/${renewed.token}`)).images).toHaveLength(1);

		const gone = await owner.client.request(`/api/boards/${board.id}`, { method: "DELETE" });
		expect(gone.status).toBe(200);
		await expectErrorEnvelope(await visitor.request(`/api/s/${renewed.token}`), 410, "SHARE_ENDED");
		expect(await readHtml(visitor, pathOf(renewed), 410)).toContain("This link has ended");
		const keptUrl = urlOf(kept).replace(share.token, renewed.token);
		await expectErrorEnvelope(await visitor.request(keptUrl), 410, "SHARE_ENDED");
		const [listed] = await listShares(owner.client);
		expect(listed?.state).toBe("revoked");
		expect(listed?.boardName).toBeNull();
	});

	it("shows a smart board's current results", async () => {
		const owner = await createTestUser(server);
		const smart = await makeBoard(owner.client, { name: "Gulls", query: { q: "gull" } });
		const early = await seedGeneration(server, {
			userId: owner.userId,
			prompt: "A gull",
			imageCount: 1,
		});
		await seedGeneration(server, { userId: owner.userId, prompt: "A crab", imageCount: 1 });
		const share = await createBoardShare(owner.client, smart.id);
		const visitor = createVisitor(server);
		const first = await readJsonPage(visitor, `/api/s/${share.token}`);
		expect(first.images.map((image) => image.prompt)).toEqual([early.prompt]);
		const later = await seedGeneration(server, {
			userId: owner.userId,
			prompt: "Two gulls",
			imageCount: 1,
		});
		const now = await readJsonPage(visitor, `/api/s/${share.token}`);
		expect(now.images.map((image) => image.prompt)).toEqual([later.prompt, early.prompt]);
	});

	it("hides every prompt, in the page and in every file, where the link hides it; display copies only without originals", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const board = await makeBoard(owner.client);
		expect((await putOnBoard(owner.client, board.id, [generation.id])).status).toBe(200);
		const visitor = createVisitor(server);

		const shown = await createBoardShare(owner.client, board.id, { originals: true });
		const shownPage = await readJsonPage(visitor, `/api/s/${shown.token}`);
		const shownOriginal = await visitor.request(shownPage.images[0]?.originalUrl ?? "");
		expect(shownOriginal.status).toBe(200);
		const shownBytes = new Uint8Array(await shownOriginal.arrayBuffer());
		expect(readRecipeFromImage(shownBytes)?.prompt).toBe(generation.prompt);

		const hidden = await createBoardShare(owner.client, board.id, {
			originals: true,
			showPrompt: false,
		});
		const page = await readJsonPage(visitor, `/api/s/${hidden.token}`);
		expect(page.images.length).toBeGreaterThan(0);
		expect(JSON.stringify(page)).not.toContain(generation.prompt);
		for (const image of page.images) {
			for (const url of [image.url, image.originalUrl ?? ""]) {
				const response = await visitor.request(url);
				expect(response.status).toBe(200);
				const bytes = new Uint8Array(await response.arrayBuffer());
				expect(readRecipeFromImage(bytes)).toBeNull();
				expect(Buffer.from(bytes).includes(Buffer.from(generation.prompt))).toBe(false);
			}
		}
		const html = await readHtml(visitor, pathOf(hidden));
		expect(html).not.toContain(generation.prompt);
		const preview = await readHtml(visitor, `${pathOf(hidden)}?image=0`);
		expect(preview).not.toContain(generation.prompt);

		const displayOnly = await createBoardShare(owner.client, board.id);
		const displayPage = await readJsonPage(visitor, `/api/s/${displayOnly.token}`);
		expect(displayPage.images[0]?.originalUrl).toBeNull();
		const original = displayPage.images[0]?.url.replace(/display$/, "original") ?? "";
		await expectErrorEnvelope(await visitor.request(original), 404, "NOT_FOUND");
	});
});
