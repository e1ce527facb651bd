// /sw.js as the server serves the built web app: revalidated on every load (a new worker takes
// over at once), as JavaScript, and allowed by the Content-Security-Policy.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadStaticSite } from "../http/static-site";
import { createTestServer, type TestServer } from "../testing/test-server";

describe("the service worker's file", () => {
	let directory: string;
	let server: TestServer;

	beforeAll(async () => {
		directory = await mkdtemp(path.join(tmpdir(), "atelier-site-"));
		await writeFile(path.join(directory, "index.html"), "<!doctype html><title>Atelier</title>");
		await writeFile(path.join(directory, "sw.js"), "self.addEventListener('push', () => {});");
		server = await createTestServer("pglite", {
			site: await loadStaticSite(directory),
			isWorkerEnabled: false,
		});
	});
	afterAll(async () => {
		await server?.close();
		await rm(directory, { recursive: true, force: true });
	});

	it("is served uncached, as a script, and the policy lets the page register it", async () => {
		const response = await server.app.request("/sw.js");
		expect(response.status).toBe(200);
		expect(response.headers.get("cache-control")).toBe("no-cache");
		expect(response.headers.get("content-type")).toContain("text/javascript");
		expect(await response.text()).toContain("push");

		const page = await server.app.request("/account");
		const policy = page.headers.get("content-security-policy") ?? "";
		expect(policy).toContain("worker-src 'self'");
		expect(policy).toContain("script-src 'self'");
	});
});
