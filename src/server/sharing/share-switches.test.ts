import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	loadPromptBlocklist,
	PromptBlocklistError,
	parsePromptBlocklist,
} from "../config/prompt-blocklist";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { seedGeneration } from "../testing/history-kit";
import { createShare, createVisitor, pathOf, shareRequest } from "../testing/share-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { DEFAULT_SHARING_SETTINGS } from "./share-settings";
import { hashShareToken } from "./share-tokens";

describe("the prompt blocklist", () => {
	it("matches whole words in any case and patterns, and names every bad line", async () => {
		const blocklist = parsePromptBlocklist("\n# a comment\nKraken\n/gi(ant|gantic) squid/\n");
		expect(blocklist.isBlocked("a KRAKEN rises")).toBe(true);
		expect(blocklist.isBlocked("krakens")).toBe(false);
		expect(blocklist.isBlocked("Gigantic squid")).toBe(true);
		expect(blocklist.isBlocked("a # a comment")).toBe(false);
		expect(() => parsePromptBlocklist("ok\n/(unclosed/\n/[z-a]/")).toThrow(PromptBlocklistError);
		try {
			parsePromptBlocklist("ok\n/(unclosed/\n/[z-a]/");
		} catch (error) {
			expect(
				(error as PromptBlocklistError).problems.map((problem) => problem.slice(0, 7)),
			).toEqual(["line 2:", "line 3:"]);
		}
		const folder = await mkdtemp(path.join(tmpdir(), "atelier-blocklist-"));
		try {
			const file = path.join(folder, "blocklist.txt");
			await writeFile(file, "kraken\n");
			expect((await loadPromptBlocklist(file)).isBlocked("Kraken")).toBe(true);
			await expect(loadPromptBlocklist(path.join(folder, "missing.txt"))).rejects.toThrow(
				/cannot read/,
			);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});

describe.each(availableDatabaseKinds())("the operator's sharing switches on %s", (kind) => {
	let off: TestServer;
	let signedIn: TestServer;
	beforeAll(async () => {
		off = await createTestServer(kind, {
			isWorkerEnabled: false,
			sharing: { ...DEFAULT_SHARING_SETTINGS, mode: "off" },
		});
		signedIn = await createTestServer(kind, {
			isWorkerEnabled: false,
			sharing: { ...DEFAULT_SHARING_SETTINGS, mode: "signed-in", maxDays: 7 },
		});
	});
	afterAll(async () => {
		await off?.close();
		await signedIn?.close();
	});

	it("with sharing off, makes no link and opens none (404)", async () => {
		const person = await createTestUser(off);
		const generation = await seedGeneration(off, { userId: person.userId, prompt: "A fox" });
		const response = await person.client.request("/api/shares", {
			method: "POST",
			json: shareRequest(generation.id),
		});
		await expectErrorEnvelope(response, 404, "NOT_FOUND");
		// A link made before the switch was turned off opens no more.
		const token = "B".repeat(43);
		await off.database.db
			.insertInto("shares")
			.values({
				id: randomUUID(),
				user_id: person.userId,
				generation_id: generation.id,
				image_index: null,
				token_hash: hashShareToken(token),
				expires_at: null,
				originals: false,
				show_prompt: true,
			})
			.execute();
		const visitor = createVisitor(off);
		expect((await visitor.request(`/s/${token}`)).status).toBe(404);
		await expectErrorEnvelope(await visitor.request(`/api/s/${token}`), 404, "NOT_FOUND");
		await expectErrorEnvelope(await person.client.request(`/api/s/${token}`), 404, "NOT_FOUND");
	});

	it("with links for signed-in people, asks a visitor to sign in (401) and shows the page to anyone signed in", async () => {
		const owner = await createTestUser(signedIn);
		const other = await createTestUser(signedIn);
		const generation = await seedGeneration(signedIn, { userId: owner.userId, prompt: "A heron" });
		const share = await createShare(owner.client, generation.id, { expires: "7d" });
		const visitor = createVisitor(signedIn);
		const page = await visitor.request(pathOf(share));
		expect(page.status).toBe(401);
		expect(await page.text()).toContain("Sign in to see this link");
		await expectErrorEnvelope(await visitor.request(`/api/s/${share.token}`), 401, "AUTH_ERROR");
		await expectErrorEnvelope(
			await visitor.request(`/s/${share.token}/images/0/display`),
			401,
			"AUTH_ERROR",
		);
		expect((await other.client.request(pathOf(share))).status).toBe(200);
		expect((await other.client.request(`/s/${share.token}/images/0/display`)).status).toBe(200);
	});

	it("refuses an expiry beyond SHARE_MAX_DAYS, and never, naming expires", async () => {
		const owner = await createTestUser(signedIn);
		const generation = await seedGeneration(signedIn, { userId: owner.userId, prompt: "A wren" });
		for (const expires of ["30d", "never"] as const) {
			const response = await owner.client.request("/api/shares", {
				method: "POST",
				json: shareRequest(generation.id, { expires }),
			});
			const message = await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
			expect(message).toContain("expires");
			expect(message).toContain("7 days");
		}
		const week = await createShare(owner.client, generation.id, { expires: "7d" });
		expect(Date.parse(week.expiresAt ?? "")).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
	});
});
