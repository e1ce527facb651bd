import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLogPageSchema } from "../../shared/history/history-responses";
import { AdminShareListSchema, ShareReportListSchema } from "../../shared/history/sharing";
import { parsePromptBlocklist } from "../config/prompt-blocklist";
import { createOpenAiModeration } from "../providers/openai/openai-moderation";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { makeBoard, putOnBoard } from "../testing/board-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "../testing/fakes/openai";
import { seedGeneration } from "../testing/history-kit";
import { createShare, createVisitor, pathOf, shareRequest } from "../testing/share-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	type TestServer,
} from "../testing/test-server";
import { DEFAULT_SHARING_SETTINGS } from "./share-settings";

type Person = Awaited<ReturnType<typeof createTestUser>>;

const BLOCKLIST = "# words and patterns\nharpoon\n/sea\\s*monsters?/\n";

let addressCounter = 0;
/** A visitor from an address of their own, so each test's counts are its own. */
function nextAddress(): string {
	addressCounter += 1;
	return `192.0.2.${addressCounter}`;
}

describe.each(availableDatabaseKinds())("moderating shared links on %s", (kind) => {
	let server: TestServer;
	let openAi: FakeOpenAi;
	let administrator: Person;
	beforeAll(async () => {
		openAi = await startFakeOpenAi();
		server = await createTestServer(kind, {
			isWorkerEnabled: false,
			promptBlocklist: parsePromptBlocklist(BLOCKLIST),
			sharing: {
				...DEFAULT_SHARING_SETTINGS,
				checkImages: createOpenAiModeration({ apiKey: FAKE_OPENAI_KEY, baseUrl: openAi.baseUrl }),
				pageLimits: {
					perAddress: { windowSeconds: 60, max: 4 },
					perLink: { windowSeconds: 60, max: 6 },
				},
				reportLimit: { windowSeconds: 3600, max: 2 },
			},
		});
		administrator = await createTestAdministrator(server);
	});
	afterAll(async () => {
		await server?.close();
		await openAi?.stop();
	});

	async function seedFor(person: Person, prompt = "A lighthouse at dusk") {
		return seedGeneration(server, { userId: person.userId, prompt, imageCount: 2 });
	}

	it("refuses a blocked prompt when generating and when sharing, naming the prompt", async () => {
		const person = await createTestUser(server);
		for (const prompt of ["A Harpoon on the deck", "Two sea   monsters at play"]) {
			const response = await person.client.request("/api/generations", {
				method: "POST",
				json: { prompt, aspectRatio: "--ar 1:1" },
			});
			expect(await expectErrorEnvelope(response, 400, "PROMPT_BLOCKED")).toContain("prompt");
		}
		// Whole words only: "harpoons" is another word, and "seamonkeys" no sea monster.
		const allowed = await person.client.request("/api/generations", {
			method: "POST",
			json: { prompt: "Harpoons and seamonkeys", aspectRatio: "--ar 1:1" },
		});
		expect(allowed.status).toBe(201);
		// A generation made before the word was listed cannot be shared now.
		const blocked = await seedFor(person, "An old harpoon");
		const response = await person.client.request("/api/shares", {
			method: "POST",
			json: shareRequest(blocked.id),
		});
		await expectErrorEnvelope(response, 400, "PROMPT_BLOCKED");
		expect(
			await server.database.db
				.selectFrom("shares")
				.select("id")
				.where("generation_id", "=", blocked.id)
				.execute(),
		).toEqual([]);
	});

	it("refuses a public link for images the moderation check flags", async () => {
		const person = await createTestUser(server);
		const generation = await seedFor(person);
		const before = openAi.requests().length;
		openAi.setBehaviour({ flagsImages: true });
		try {
			const response = await person.client.request("/api/shares", {
				method: "POST",
				json: shareRequest(generation.id),
			});
			await expectErrorEnvelope(response, 422, "SHARE_FLAGGED");
		} finally {
			openAi.setBehaviour({ flagsImages: false });
		}
		const sent = openAi.requests().slice(before);
		expect(sent.map((request) => request.path)).toEqual(["/v1/moderations"]);
		expect(JSON.stringify(sent[0]?.body)).toContain('"type":"image_url"');
		expect(JSON.stringify(sent[0]?.body)).toContain("data:image/png;base64,");
		// Unflagged, each image is checked and the link made.
		const share = await createShare(person.client, generation.id);
		expect(openAi.requests().length - before).toBe(3);
		expect((await createVisitor(server, nextAddress()).request(pathOf(share))).status).toBe(200);
	});

	it("refuses a public link to a board where images are checked, since its later images would go unchecked", async () => {
		const person = await createTestUser(server);
		const generation = await seedFor(person);
		const board = await makeBoard(person.client);
		expect((await putOnBoard(person.client, board.id, [generation.id])).status).toBe(200);
		const before = openAi.requests().length;
		const response = await person.client.request("/api/shares", {
			method: "POST",
			json: { ...shareRequest(generation.id), target: { boardId: board.id } },
		});
		expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toContain("target");
		expect(openAi.requests().length).toBe(before);
		expect(
			await server.database.db.selectFrom("shares").where("board_id", "=", board.id).execute(),
		).toEqual([]);
	});

	it("stores a report from the page's form or JSON, and the administrator hides the link (451), audited", async () => {
		const person = await createTestUser(server);
		const generation = await seedFor(person);
		const share = await createShare(person.client, generation.id);
		const visitor = createVisitor(server, nextAddress());
		const form = await visitor.request(`/api/s/${share.token}/report`, {
			method: "POST",
			headers: { "content-type": "application/x-www-form-urlencoded" },
			body: new URLSearchParams({ reason: "Not for children" }).toString(),
		});
		expect(form.status).toBe(303);
		expect(form.headers.get("location")).toBe(`/s/${share.token}?reported=1`);
		const json = await createVisitor(server, nextAddress()).request(
			`/api/s/${share.token}/report`,
			{
				method: "POST",
				json: { reason: "Someone's face" },
			},
		);
		expect(json.status).toBe(201);
		const empty = await createVisitor(server, nextAddress()).request(
			`/api/s/${share.token}/report`,
			{
				method: "POST",
				json: { reason: "  " },
			},
		);
		await expectErrorEnvelope(empty, 400, "VALIDATION_ERROR");

		// Only the administrator's browser reads the queue and acts.
		await expectErrorEnvelope(await person.client.request("/api/admin/reports"), 404, "NOT_FOUND");
		const { token } = await createToken(administrator, ["read", "share"]);
		await expectErrorEnvelope(
			await callWithToken(server, token, `/api/admin/shares/${share.id}/hide`, { method: "POST" }),
			403,
			"TOKEN_NOT_ALLOWED",
		);
		const reports = ShareReportListSchema.parse(
			await (await administrator.client.request("/api/admin/reports")).json(),
		).items.filter((report) => report.share.id === share.id);
		expect(reports.map((report) => report.reason).sort()).toEqual([
			"Not for children",
			"Someone's face",
		]);
		expect(reports[0]?.share.ownerEmail).toBe(person.email);
		expect(reports[0]?.share.reports).toBe(2);

		const hidden = await administrator.client.request(`/api/admin/shares/${share.id}/hide`, {
			method: "POST",
		});
		expect(hidden.status).toBe(200);
		const page = await visitor.request(pathOf(share));
		expect(page.status).toBe(451);
		expect(await page.text()).toContain("This page was taken down");
		await expectErrorEnvelope(await visitor.request(`/api/s/${share.token}`), 451, "SHARE_HIDDEN");
		await expectErrorEnvelope(
			await visitor.request(`/s/${share.token}/images/0/display`),
			451,
			"SHARE_HIDDEN",
		);
		// Hiding again writes nothing more.
		await administrator.client.request(`/api/admin/shares/${share.id}/hide`, { method: "POST" });

		const other = await createShare(person.client, generation.id);
		const revoked = await administrator.client.request(`/api/admin/shares/${other.id}`, {
			method: "DELETE",
		});
		expect(revoked.status).toBe(200);
		await expectErrorEnvelope(await visitor.request(`/api/s/${other.token}`), 410, "SHARE_ENDED");
		const listed = AdminShareListSchema.parse(
			await (await administrator.client.request("/api/admin/shares")).json(),
		).items.filter((entry) => entry.ownerEmail === person.email);
		expect(listed.map((entry) => entry.state).sort()).toEqual(["hidden", "revoked"]);

		const log = AuditLogPageSchema.parse(
			await (await administrator.client.request("/api/admin/audit-log?limit=100")).json(),
		).items.filter((entry) => entry.owner_email === person.email);
		expect(log.map((entry) => [entry.action, entry.generation_id, entry.details])).toEqual([
			["revoke-share", generation.id, `link ${other.id}`],
			["hide-share", generation.id, `link ${share.id}`],
		]);
		expect(log[0]?.actor_email).toBe(administrator.email);
	});

	it("limits shared pages per address and per link, and reports per address (429)", async () => {
		const person = await createTestUser(server);
		const generation = await seedFor(person);
		const share = await createShare(person.client, generation.id);
		const visitor = createVisitor(server, nextAddress());
		for (let index = 0; index < 4; index++) {
			expect((await visitor.request(pathOf(share))).status).toBe(200);
		}
		const page = await visitor.request(pathOf(share));
		expect(page.status).toBe(429);
		expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
		await expectErrorEnvelope(
			await visitor.request(`/s/${share.token}/images/0/display`),
			429,
			"RATE_LIMITED",
		);
		// Another address may open it until the link has had its six, and other links after.
		const second = createVisitor(server, nextAddress());
		expect((await second.request(`/api/s/${share.token}`)).status).toBe(200);
		expect((await second.request(`/api/s/${share.token}`)).status).toBe(200);
		await expectErrorEnvelope(await second.request(`/api/s/${share.token}`), 429, "RATE_LIMITED");
		const otherShare = await createShare(person.client, generation.id);
		expect((await second.request(`/api/s/${otherShare.token}`)).status).toBe(200);

		const reporter = createVisitor(server, nextAddress());
		for (let index = 0; index < 2; index++) {
			const response = await reporter.request(`/api/s/${otherShare.token}/report`, {
				method: "POST",
				json: { reason: `Report ${index}` },
			});
			expect(response.status).toBe(201);
		}
		const third = await reporter.request(`/api/s/${otherShare.token}/report`, {
			method: "POST",
			json: { reason: "Once more" },
		});
		await expectErrorEnvelope(third, 429, "RATE_LIMITED");
	});
});
