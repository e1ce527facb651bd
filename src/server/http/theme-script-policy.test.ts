// The page's one inline script, the theme's decision before the first paint, as the server serves
// it: the Content-Security-Policy allows exactly that script by its hash, and no other inline one.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THEME_SCRIPT } from "../../shared/account/theme";
import { createTestServer, type TestServer } from "../testing/test-server";
import { loadStaticSite } from "./static-site";

/** The page's inline scripts' sources as a policy names them. */
function hashInlineScripts(html: string): string[] {
	return [
		...html.matchAll(
			/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g,
		),
	].map(
		([, code]) =>
			`'sha256-${createHash("sha256")
				.update(code ?? "")
				.digest("base64")}'`,
	);
}

describe("the theme's inline script", () => {
	let directory: string;
	let server: TestServer;

	beforeAll(async () => {
		directory = await mkdtemp(path.join(tmpdir(), "atelier-site-"));
		// index.html as the build writes it: vite.config.ts puts the script first in its head.
		const source = await readFile(path.join(import.meta.dirname, "../../web/index.html"), "utf8");
		const built = source.replace("<head>", `<head><script>${THEME_SCRIPT}</script>`);
		await writeFile(path.join(directory, "index.html"), built);
		server = await createTestServer("pglite", {
			site: await loadStaticSite(directory),
			isWorkerEnabled: false,
		});
	});
	afterAll(async () => {
		await server?.close();
		await rm(directory, { recursive: true, force: true });
	});

	it("is allowed by the page's Content-Security-Policy by its hash, without 'unsafe-inline'", async () => {
		const page = await server.app.request("/");
		const html = await page.text();
		const hashes = hashInlineScripts(html);
		expect(hashes).toHaveLength(1);
		const scriptSources = /(?:^|;)\s*script-src ([^;]*)/.exec(
			page.headers.get("content-security-policy") ?? "",
		)?.[1];
		expect(scriptSources?.split(" ")).toEqual(["'self'", hashes[0]]);
	});
});
