import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActiveGenerationsSchema } from "../../shared/generations/generations";
import { type ImageProvider, PLAIN_CAPABILITIES, type ProviderJobState } from "../providers/types";
import { requestGeneration, waitForFinish } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

type Client = Awaited<ReturnType<typeof createTestUser>>["client"];

/** A provider whose jobs run until the test fails them by prompt, so they stay active meanwhile. */
function createHeldProvider() {
	const failedPrompts = new Set<string>();
	const provider: ImageProvider = {
		name: "held",
		capabilities: PLAIN_CAPABILITIES,
		async start(input) {
			return { jobId: `held-${input.prompt}` };
		},
		async check(job): Promise<ProviderJobState> {
			return failedPrompts.has(job.input.prompt)
				? { status: "failed", message: "Stopped by the test" }
				: { status: "running" };
		},
	};
	return { provider, finish: (prompt: string) => failedPrompts.add(prompt) };
}

async function readActive(client: Client | TestClient, query = "") {
	const response = await client.request(`/api/generations/active${query}`);
	expect(response.status).toBe(200);
	expect(response.headers.get("cache-control")).toBe("no-store");
	return ActiveGenerationsSchema.parse(await response.json());
}

describe.each(availableDatabaseKinds())("the active generations on %s", (kind) => {
	let server: TestServer;
	const held = createHeldProvider();

	beforeAll(async () => {
		server = await createTestServer(kind, {
			provider: held.provider,
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
		});
	});
	afterAll(async () => {
		await server.close();
	});

	it("lists the person's own queued and running generations, oldest first, until they finish", async () => {
		const { client } = await createTestUser(server);
		const other = await createTestUser(server);
		expect(await readActive(client)).toMatchObject({ count: 0, items: [] });

		const first = await requestGeneration(client, `first ${kind}`, "--ar 1:1");
		const second = await requestGeneration(client, `second ${kind}`, "--ar 1:1");
		const others = await requestGeneration(other.client, `someone else's ${kind}`, "--ar 1:1");

		const active = await readActive(client);
		expect(active.count).toBe(2);
		expect(active.items.map((item) => item.id)).toEqual([first.id, second.id]);
		for (const item of active.items) {
			expect(["queued", "running"]).toContain(item.status);
			// A queued one waits; a claimed one is starting until its provider reports more.
			const stages = item.status === "queued" ? ["queued"] : ["starting", "running"];
			expect(stages).toContain(item.progress?.stage);
		}

		held.finish(`first ${kind}`);
		await waitForFinish(client, first.pollingUrl);
		const after = await readActive(client);
		expect(after.items.map((item) => item.id)).toEqual([second.id]);
		expect(after.version).not.toBe(active.version);

		// The worker's turns are few: end the rest, so the next test's generations get theirs.
		held.finish(`second ${kind}`);
		held.finish(`someone else's ${kind}`);
		await waitForFinish(client, second.pollingUrl);
		await waitForFinish(other.client, others.pollingUrl);
	});

	it("answers at once when `after` is not the current version, and waits for a change when it is", async () => {
		const { client } = await createTestUser(server);
		const now = await readActive(client);
		expect(await readActive(client, "?after=stale&wait=25000")).toEqual(now);

		// A generation started elsewhere (here, another request of the same person) ends the wait:
		// the test's own time limit is shorter than the wait, so a wait that is not woken fails it.
		const waiting = readActive(client, `?after=${now.version}&wait=25000`);
		const started = await requestGeneration(client, `started elsewhere ${kind}`, "--ar 1:1");
		const woken = await waiting;
		expect(woken.count).toBe(1);
		expect(woken.items[0]?.id).toBe(started.id);

		// Each change of it ends the next wait (its start, its end), until none is left.
		held.finish(`started elsewhere ${kind}`);
		let answer = woken;
		while (answer.count > 0) {
			const next = await readActive(client, `?after=${answer.version}&wait=25000`);
			expect(next.version).not.toBe(answer.version);
			answer = next;
		}
	}, 20_000);

	it("refuses a visitor without a session", async () => {
		const response = await new TestClient(server).request("/api/generations/active");
		expect(response.status).toBe(401);
	});
});
