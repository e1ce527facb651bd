import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedPageSchema } from "../../shared/history/sharing";
import {
	readRecipeFromImage,
	writeRecipeToImage,
} from "../../shared/image-recipe/image-recipe-files";
import { makeFinishedGeneration } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { requestGeneration, waitForFinish } from "../testing/generation-kit";
import { seedGeneration } from "../testing/history-kit";
import { createShare, createVisitor, listShares, pathOf, shareRequest } from "../testing/share-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";

/** The page's HTML, asserted to be the shared page's kind of answer. */
async function readPage(response: Response, status: number): Promise<string> {
	expect(response.status).toBe(status);
	expect(response.headers.get("content-type")).toMatch(/^text\/html/);
	expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
	return response.text();
}

async function readImage(response: Response): Promise<Uint8Array> {
	expect(response.status).toBe(200);
	expect(response.headers.get("content-type")).toMatch(/^image\//);
	return new Uint8Array(await response.arrayBuffer());
}

describe.each(availableDatabaseKinds())("shared links on %s", (kind) => {
	let server: TestServer;
	beforeAll(async () => {
		server = await createTestServer(kind, {
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
		});
	});
	afterAll(async () => {
		await server?.close();
	});

	it("makes each link a new 256-bit random token, kept in the database only as its hash", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const tokens = [];
		for (let index = 0; index < 3; index++) {
			const share = await createShare(owner.client, generation.id);
			expect(share.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
			expect(Buffer.from(share.token, "base64url")).toHaveLength(32);
			expect(share.url).toBe(`http://localhost:3000/s/${share.token}`);
			expect(share.token).not.toContain(generation.id.replaceAll("-", "").slice(0, 8));
			tokens.push(share.token);
		}
		expect(new Set(tokens).size).toBe(3);
		const rows = await server.database.db
			.selectFrom("shares")
			.selectAll()
			.where("generation_id", "=", generation.id)
			.execute();
		expect(rows).toHaveLength(3);
		const stored = JSON.stringify(rows);
		for (const token of tokens) {
			expect(stored).not.toContain(token);
			const hash = createHash("sha256").update(token).digest("base64url");
			expect(rows.map((row) => row.token_hash)).toContain(hash);
		}
	});

	it("shows the page signed out, without the app's script, unindexed, and counts its views", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const share = await createShare(owner.client, generation.id);
		const visitor = createVisitor(server);
		const html = await readPage(await visitor.request(pathOf(share)), 200);
		expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
		expect(html).not.toMatch(/\/assets\/[^"]*\.js/);
		expect(html).not.toContain('type="module"');
		expect(html).toContain(generation.prompt);
		expect(html).toContain(`/s/${share.token}/images/0/display`);
		// The preview keys follow plain links: with JavaScript off they still work.
		const preview = await readPage(await visitor.request(`${pathOf(share)}?image=0`), 200);
		expect(preview).toContain(`data-key="up" href="/s/${share.token}"`);

		const answer = await visitor.request(`/api/s/${share.token}`);
		expect(answer.status).toBe(200);
		expect(answer.headers.get("x-robots-tag")).toBe("noindex, nofollow");
		const page = SharedPageSchema.parse(await answer.json());
		expect(page.prompt).toBe(generation.prompt);
		expect(page.images).toHaveLength(1);
		expect(page.images[0]?.originalUrl).toBeNull();
		const display = await readImage(await visitor.request(page.images[0]?.url ?? ""));
		expect(display.length).toBeGreaterThan(0);

		// Three views: the page, its preview and its JSON; the image it loads is not a view.
		const [listed] = await listShares(owner.client);
		expect(listed?.id).toBe(share.id);
		expect(listed?.views).toBe(3);
		expect(listed?.lastViewedAt).not.toBeNull();
		expect(listed?.state).toBe("live");
	});

	it("serves files without any recipe through a link that hides the prompt", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const shown = await createShare(owner.client, generation.id, { originals: true });
		const hidden = await createShare(owner.client, generation.id, {
			originals: true,
			showPrompt: false,
		});
		const visitor = createVisitor(server);
		// Shown: the original carries its recipe, as a download does.
		const shownPage = SharedPageSchema.parse(
			await (await visitor.request(`/api/s/${shown.token}`)).json(),
		);
		const shownOriginal = await readImage(
			await visitor.request(shownPage.images[0]?.originalUrl ?? ""),
		);
		expect(readRecipeFromImage(shownOriginal)?.prompt).toBe(generation.prompt);

		const page = SharedPageSchema.parse(
			await (await visitor.request(`/api/s/${hidden.token}`)).json(),
		);
		expect(page.prompt).toBeNull();
		expect(page.settings).toBeNull();
		const html = await readPage(await visitor.request(pathOf(hidden)), 200);
		expect(html).not.toContain(generation.prompt);
		for (const url of [page.images[0]?.url, page.images[0]?.originalUrl]) {
			const bytes = await readImage(await visitor.request(url ?? ""));
			expect(readRecipeFromImage(bytes)).toBeNull();
			expect(Buffer.from(bytes).includes(Buffer.from(generation.prompt))).toBe(false);
		}
	});

	it("strips a recipe the stored original carries where the original stands in for its display copy", async () => {
		const owner = await createTestUser(server);
		const seeded = await seedGeneration(server, {
			userId: owner.userId,
			prompt: "A red kite over the dunes",
			imageCount: 1,
		});
		const image = seeded.images[0];
		const bytes = seeded.imageBytes[0];
		if (!image || !bytes) throw new Error("no seeded image");
		// A provider (ComfyUI, say) may store a file that already tells its prompt.
		const withPrompt = writeRecipeToImage(new Uint8Array(bytes), {
			prompt: seeded.prompt,
			aspectRatio: "--ar 1:1",
			model: { id: "local", label: "Offline engine" },
			count: 1,
			seed: 1,
			negativePrompt: null,
			quality: null,
			width: 8,
			height: 8,
			style: null,
		});
		if (!withPrompt) throw new Error("recipe not written");
		await server.storage.put(image.key, withPrompt, "image/png");
		expect(readRecipeFromImage(withPrompt)?.prompt).toBe(seeded.prompt);
		const share = await createShare(owner.client, seeded.id, { showPrompt: false });
		const visitor = createVisitor(server);
		const display = await readImage(await visitor.request(`/s/${share.token}/images/0/display`));
		expect(readRecipeFromImage(display)).toBeNull();
		// Originals are off: the original's own address is not served.
		await expectErrorEnvelope(
			await visitor.request(`/s/${share.token}/images/0/original`),
			404,
			"NOT_FOUND",
		);
	});

	it("shares one image of a generation, and refuses an index it does not have", async () => {
		const owner = await createTestUser(server);
		const created = await requestGeneration(owner.client, "Two boats", "--ar 1:1", { count: 2 });
		await waitForFinish(owner.client, created.pollingUrl);
		const share = await createShare(owner.client, created.id, { imageIndex: 1 });
		expect(share.target).toEqual({ generationId: created.id, imageIndex: 1, boardId: null });
		const visitor = createVisitor(server);
		const page = SharedPageSchema.parse(
			await (await visitor.request(`/api/s/${share.token}`)).json(),
		);
		expect(page.images).toHaveLength(1);
		const beyond = await owner.client.request("/api/shares", {
			method: "POST",
			json: shareRequest(created.id, { imageIndex: 3 }),
		});
		expect(await expectErrorEnvelope(beyond, 400, "VALIDATION_ERROR")).toContain("imageIndex");
	});

	it("ends a link at once when revoked, and a new link replaces the old one's address", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const first = await createShare(owner.client, generation.id);
		const visitor = createVisitor(server);
		expect((await visitor.request(pathOf(first))).status).toBe(200);

		const rotated = await owner.client.request(`/api/shares/${first.id}/rotate`, {
			method: "POST",
		});
		expect(rotated.status).toBe(201);
		const second = (await rotated.json()) as { id: string; token: string; url: string };
		expect(second.token).not.toBe(first.token);
		expect(second.url).toContain(second.token);
		const ended = await readPage(await visitor.request(pathOf(first)), 410);
		expect(ended).toContain("This link has ended");
		await expectErrorEnvelope(await visitor.request(`/api/s/${first.token}`), 410, "SHARE_ENDED");
		await expectErrorEnvelope(
			await visitor.request(`/s/${first.token}/images/0/display`),
			410,
			"SHARE_ENDED",
		);
		expect((await visitor.request(pathOf(second))).status).toBe(200);

		const revoked = await owner.client.request(`/api/shares/${second.id}`, { method: "DELETE" });
		expect(revoked.status).toBe(200);
		await readPage(await visitor.request(pathOf(second)), 410);
		await expectErrorEnvelope(await visitor.request(`/api/s/${second.token}`), 410, "SHARE_ENDED");
		const states = (await listShares(owner.client)).map((share) => [share.id, share.state]);
		expect(states).toEqual([
			[second.id, "revoked"],
			[first.id, "revoked"],
		]);
		// A revoked link cannot be renewed: its owner makes a new one.
		const again = await owner.client.request(`/api/shares/${second.id}/rotate`, { method: "POST" });
		await expectErrorEnvelope(again, 400, "VALIDATION_ERROR");
	});

	it("answers 410 once a link has expired or its generation is deleted, and 404 for an unknown token", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const expiring = await createShare(owner.client, generation.id, { expires: "1h" });
		expect(Date.parse(expiring.expiresAt ?? "") - Date.now()).toBeGreaterThan(3_500_000);
		const lasting = await createShare(owner.client, generation.id, { expires: "never" });
		expect(lasting.expiresAt).toBeNull();
		const visitor = createVisitor(server);
		await server.database.db
			.updateTable("shares")
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where("id", "=", expiring.id)
			.execute();
		await readPage(await visitor.request(pathOf(expiring)), 410);
		await expectErrorEnvelope(
			await visitor.request(`/api/s/${expiring.token}`),
			410,
			"SHARE_ENDED",
		);
		expect((await visitor.request(pathOf(lasting))).status).toBe(200);

		const deleted = await owner.client.request(`/api/generations/${generation.id}`, {
			method: "DELETE",
		});
		expect(deleted.status).toBe(200);
		await readPage(await visitor.request(pathOf(lasting)), 410);
		await expectErrorEnvelope(await visitor.request(`/api/s/${lasting.token}`), 410, "SHARE_ENDED");

		const unknown = "A".repeat(43);
		const page = await readPage(await visitor.request(`/s/${unknown}`), 404);
		expect(page).toContain("This link does not exist");
		await expectErrorEnvelope(await visitor.request(`/api/s/${unknown}`), 404, "NOT_FOUND");
		await expectErrorEnvelope(await visitor.request("/api/s/short"), 404, "NOT_FOUND");
	});

	it("keeps a person's links their own: another's generation and links are unknown to them", async () => {
		const owner = await createTestUser(server);
		const stranger = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const share = await createShare(owner.client, generation.id);
		const theirs = await stranger.client.request("/api/shares", {
			method: "POST",
			json: shareRequest(generation.id),
		});
		await expectErrorEnvelope(theirs, 404, "NOT_FOUND");
		await expectErrorEnvelope(
			await stranger.client.request(`/api/shares/${share.id}`, { method: "DELETE" }),
			404,
			"NOT_FOUND",
		);
		await expectErrorEnvelope(
			await stranger.client.request(`/api/shares/${share.id}/rotate`, { method: "POST" }),
			404,
			"NOT_FOUND",
		);
		expect(await listShares(stranger.client)).toEqual([]);
		expect((await createVisitor(server).request(pathOf(share))).status).toBe(200);
		await expectErrorEnvelope(
			await createVisitor(server).request("/api/shares"),
			401,
			"AUTH_ERROR",
		);
	});

	it("refuses what the request gets wrong, naming the field", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const cases: [unknown, string][] = [
			[{ ...shareRequest(generation.id), expires: "2d" }, "expires"],
			[{ ...shareRequest(generation.id), originals: "yes" }, "originals"],
			[{ ...shareRequest(generation.id), target: { boardId: "x" } }, "target.boardId"],
			[{ ...shareRequest("not-an-id") }, "target.generationId"],
		];
		for (const [body, field] of cases) {
			const response = await owner.client.request("/api/shares", { method: "POST", json: body });
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toContain(field);
		}
	});
});
