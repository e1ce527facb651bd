import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadStaticSite } from "./http/static-site";
import { availableDatabaseKinds } from "./testing/test-database";
import { createTestServer, TestClient, type TestServer } from "./testing/test-server";

describe.each(availableDatabaseKinds())("the HTTP app on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server.close();
	});

	it("reports health after checking the database", async () => {
		const response = await server.app.request("/api/health");
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ status: "ok", database: kind });
	});

	it("sends security headers: a CSP without inline scripts, nosniff, frame denial, referrer policy", async () => {
		const response = await server.app.request("/api/health");
		const csp = response.headers.get("content-security-policy") ?? "";
		expect(csp).toContain("script-src 'self'");
		expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
		expect(csp).toContain("frame-ancestors 'none'");
		expect(response.headers.get("x-content-type-options")).toBe("nosniff");
		expect(response.headers.get("x-frame-options")).toBe("DENY");
		expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
	});

	it("publishes whether Google sign-in is configured", async () => {
		const response = await server.app.request("/api/config");
		expect(await response.json()).toEqual({
			googleEnabled: false,
			imageProvider: "local",
			emailVerificationRequired: false,
		});
	});

	it("answers an unknown API path with the error envelope", async () => {
		const response = await server.app.request("/api/nothing-here");
		expect(response.status).toBe(404);
		expect(await response.json()).toEqual({
			success: false,
			error: { code: "NOT_FOUND", message: "Not found." },
		});
	});

	it("refuses an oversized body with 413 and the error envelope", async () => {
		const client = new TestClient(server);
		const response = await client.request("/api/auth/sign-in/email", {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ email: "a@example.com", password: "x".repeat(100_000) }),
		});
		expect(response.status).toBe(413);
		expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
			"PAYLOAD_TOO_LARGE",
		);
	});
});

describe("when the database goes away", () => {
	it("answers 503 from the health check instead of a stack trace", async () => {
		const server = await createTestServer("pglite");
		await server.database.pool.end();
		const response = await server.app.request("/api/health");
		expect(response.status).toBe(503);
		expect(await response.json()).toEqual({
			success: false,
			error: {
				code: "SERVICE_UNAVAILABLE",
				message: "The service is temporarily unavailable. Please try again in a moment.",
			},
		});
	});
});

describe("the built web app", () => {
	let directory: string;

	beforeAll(async () => {
		directory = await mkdtemp(path.join(tmpdir(), "atelier-site-"));
		await mkdir(path.join(directory, "assets"));
		await writeFile(path.join(directory, "index.html"), "<!doctype html><title>Atelier</title>");
		const script = "console.log('hello');".repeat(50);
		await writeFile(path.join(directory, "assets", "main-abc123.js"), script);
		await writeFile(
			path.join(directory, "assets", "main-abc123.js.br"),
			brotliCompressSync(script),
		);
	});

	async function createSiteApp() {
		const server = await createTestServer("pglite", {
			site: await loadStaticSite(directory),
			isWorkerEnabled: false,
		});
		return { app: server.app, close: () => server.close() };
	}

	it("serves hashed assets as immutable and compressed, and client routes as the app shell", async () => {
		const { app, close } = await createSiteApp();
		try {
			const asset = await app.request("/assets/main-abc123.js", {
				headers: { "accept-encoding": "gzip, br" },
			});
			expect(asset.status).toBe(200);
			expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
			expect(asset.headers.get("content-encoding")).toBe("br");
			expect(asset.headers.get("content-type")).toContain("text/javascript");

			for (const route of ["/", "/generations", "/login", "/no/such/page"]) {
				const page = await app.request(route);
				expect(page.status).toBe(200);
				expect(page.headers.get("cache-control")).toBe("no-cache");
				expect(await page.text()).toContain("<title>Atelier</title>");
			}

			const missingAsset = await app.request("/assets/gone-000.js");
			expect(missingAsset.status).toBe(404);

			const etag = (await app.request("/")).headers.get("etag") ?? "";
			const revalidated = await app.request("/", { headers: { "if-none-match": etag } });
			expect(revalidated.status).toBe(304);
		} finally {
			await close();
		}
	});

	it("refuses to start without a built index.html", async () => {
		const empty = await mkdtemp(path.join(tmpdir(), "atelier-empty-"));
		await expect(loadStaticSite(empty)).rejects.toThrow(/not built/);
	});
});
