import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelCatalogue, modelFromProvider } from "../models/model-catalogue";
import { createHttpProvider } from "../providers/http/http-provider";
import { DEFAULT_RUN_SETTINGS } from "../server";
import {
	type FakeHttpImageService,
	startFakeHttpImageService,
} from "../testing/fakes/http-image-service";
import { requestGeneration, waitForFinish } from "../testing/generation-kit";
import { parseMetricsText, readSample } from "../testing/metrics-text";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

const TOKEN = "a-scraper-token-of-32-characters";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function scrape(server: Pick<TestServer, "app">): Promise<string> {
	const response = await server.app.request("/metrics", {
		headers: { authorization: `Bearer ${TOKEN}` },
	});
	expect(response.status).toBe(200);
	expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
	return response.text();
}

describe.each(availableDatabaseKinds())("GET /metrics on %s", (kind) => {
	let service: FakeHttpImageService;
	let server: TestServer;
	let idle: TestServer;
	let closed: TestServer;

	beforeAll(async () => {
		service = await startFakeHttpImageService({ latencyMs: 0, behaviour: { imageCount: 1 } });
		const provider = createHttpProvider({ apiUrl: service.url, requestTimeoutMs: 5_000 });
		[server, idle, closed] = await Promise.all([
			createTestServer(kind, {
				metricsToken: TOKEN,
				models: createModelCatalogue([modelFromProvider(provider, { id: "x", label: "X" })], "x"),
				run: { retryDelayMs: 10, timeoutMs: 30_000 },
			}),
			// No worker: what is queued stays queued.
			createTestServer(kind, { metricsToken: TOKEN, isWorkerEnabled: false }),
			createTestServer(kind, { isWorkerEnabled: false }),
		]);
	});
	afterAll(async () => {
		await Promise.all([server, idle, closed].map((each) => each?.close()));
		await service?.stop();
	});

	it("does not exist without METRICS_TOKEN", async () => {
		expect((await closed.app.request("/metrics")).status).toBe(404);
		const withSomeToken = await closed.app.request("/metrics", {
			headers: { authorization: `Bearer ${TOKEN}` },
		});
		expect(withSomeToken.status).toBe(404);
	});

	it("asks for the token: 401 without it or with another", async () => {
		const without = await server.app.request("/metrics");
		expect(without.status).toBe(401);
		expect(without.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
		for (const authorization of [
			`Bearer ${TOKEN}x`,
			`Bearer ${TOKEN.slice(1)}`,
			"Bearer ",
			TOKEN,
		]) {
			const wrong = await server.app.request("/metrics", { headers: { authorization } });
			expect(wrong.status).toBe(401);
		}
	});

	it("counts generations by model and outcome, provider errors by kind and requests by route", async () => {
		const { client } = await createTestUser(server);
		const generate = async () => {
			const { pollingUrl } = await requestGeneration(client, "a lighthouse", "--ar 1:1");
			return waitForFinish(client, pollingUrl);
		};

		expect((await generate()).status).toBe("completed");
		expect((await generate()).status).toBe("completed");
		service.setBehaviour({ start: "rejected" });
		expect((await generate()).status).toBe("failed");
		service.setBehaviour({ start: "rate-limited", retryAfterSeconds: 0 });
		expect((await generate()).status).toBe("failed");
		service.setBehaviour({ start: "ok" });

		// A run counts its generation just after the row says it is finished.
		await expect
			.poll(async () =>
				readSample(await scrape(server), "atelier_generations_total", {
					model: "x",
					outcome: "failed",
				}),
			)
			.toBe(2);
		const text = await scrape(server);
		const sample = (name: string, labels: Record<string, string> = {}) =>
			readSample(text, name, labels);

		expect(sample("atelier_generations_total", { model: "x", outcome: "completed" })).toBe(2);
		expect(
			sample("atelier_generation_duration_seconds_count", { model: "x", outcome: "completed" }),
		).toBe(2);
		expect(
			sample("atelier_generation_duration_seconds_count", { model: "x", outcome: "failed" }),
		).toBe(2);
		expect(
			sample("atelier_generation_duration_seconds_sum", { model: "x", outcome: "completed" }),
		).toBeGreaterThan(0);
		// The refusal is given up at once; the busy service is tried until the retries run out.
		expect(sample("atelier_provider_errors_total", { model: "x", kind: "refused" })).toBe(1);
		expect(sample("atelier_provider_errors_total", { model: "x", kind: "busy" })).toBe(
			DEFAULT_RUN_SETTINGS.maxRetries,
		);
		expect(sample("atelier_provider_errors_total", { kind: "unreachable" })).toBeUndefined();

		expect(
			sample("atelier_http_requests_total", {
				method: "POST",
				route: "/api/generations",
				status: "201",
			}),
		).toBe(4);
		expect(
			sample("atelier_http_requests_total", {
				method: "GET",
				route: "/api/generations/:id/status",
				status: "200",
			}),
		).toBeGreaterThanOrEqual(4);
		expect(
			sample("atelier_http_request_duration_seconds_count", {
				method: "POST",
				route: "/api/generations",
			}),
		).toBe(4);
		const routes = parseMetricsText(text)
			.filter((each) => each.name === "atelier_http_requests_total")
			.map((each) => each.labels.route ?? "");
		expect(routes.filter((route) => UUID.test(route))).toEqual([]);

		// Node's own figures, and the pool: one session when embedded, DATABASE_POOL_MAX on PostgreSQL.
		expect(sample("atelier_process_resident_memory_bytes")).toBeGreaterThan(0);
		expect(sample("atelier_nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
		expect(sample("atelier_database_pool_max")).toBe(kind === "pglite" ? 1 : 5);
		expect(sample("atelier_database_pool_waiting")).toBe(0);
		expect(sample("atelier_database_pool_in_use")).toBeGreaterThanOrEqual(0);
	});

	it("counts an unknown path under its catch-all pattern, not its own", async () => {
		const client = new TestClient(server);
		expect((await client.request("/api/no-such-thing/123")).status).toBe(404);

		const text = await scrape(server);
		expect(
			readSample(text, "atelier_http_requests_total", { route: "/api/*", status: "404" }),
		).toBeGreaterThanOrEqual(1);
		expect(text).not.toContain("no-such-thing");
	});

	it("reads the queue from the database: its depth and how long the oldest has waited", async () => {
		const before = await scrape(idle);
		expect(readSample(before, "atelier_generation_queue_depth")).toBe(0);
		expect(readSample(before, "atelier_generation_queue_oldest_age_seconds")).toBe(0);

		const { client } = await createTestUser(idle);
		await requestGeneration(client, "first in line", "--ar 1:1");
		await requestGeneration(client, "second in line", "--ar 16:9");

		const after = await scrape(idle);
		expect(readSample(after, "atelier_generation_queue_depth")).toBe(2);
		expect(readSample(after, "atelier_generation_queue_oldest_age_seconds")).toBeGreaterThan(0);
		expect(readSample(after, "atelier_generations_running")).toBe(0);
	});
});
