import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOT_STATE_PLACEHOLDER, type PagesManifest } from "../shared/account/boot-state";
import { APP_ROUTES, PRERENDERED_SCREENS } from "../shared/core/app-routes";
import { LANGUAGES } from "../shared/i18n/languages";
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

	it("sends security headers: a CSP without unsafe inline scripts, nosniff, frame denial, referrer policy", async () => {
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
			modelChoice: false,
			trash: true,
			sharing: "public",
			shareMaxDays: null,
			enhance: false,
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
		await writeFile(path.join(directory, "manifest.webmanifest"), '{"name":"Atelier"}');
		const script = "console.log('hello');".repeat(50);
		await writeFile(path.join(directory, "assets", "main-abc123.js"), script);
		await writeFile(
			path.join(directory, "assets", "main-abc123.js.br"),
			brotliCompressSync(script),
		);
	});

	async function createSiteApp(siteDirectory = directory) {
		const server = await createTestServer("pglite", {
			site: await loadStaticSite(siteDirectory),
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

	/** A built site whose prerendered pages say their name and variant, in each variant. */
	async function writePrerenderedSite(
		pages: ReadonlyArray<readonly [name: string, paths: readonly string[], status: 200 | 404]>,
	): Promise<string> {
		const site = await mkdtemp(path.join(tmpdir(), "atelier-pages-"));
		const shell = `<!doctype html><html lang="en"><head>${BOOT_STATE_PLACEHOLDER}</head><div id="root"></div>`;
		await writeFile(path.join(site, "index.html"), shell);
		await mkdir(path.join(site, "pages"));
		const manifest: PagesManifest = { pages: [] };
		for (const [name, paths, status] of pages) {
			const files = {} as PagesManifest["pages"][number]["files"];
			for (const session of ["signed-out", "unknown"] as const) {
				for (const engine of ["offline-engine", "image-service"] as const) {
					for (const language of LANGUAGES) {
						const variant = `${session}.${engine}.${language}` as const;
						const file = `pages/${name}.${variant}.html`;
						await writeFile(
							path.join(site, file),
							`<!doctype html><html lang="${language}"><head>${BOOT_STATE_PLACEHOLDER}</head><div id="root"><p>${name} ${variant}</p></div>`,
						);
						files[variant] = file;
					}
				}
			}
			manifest.pages.push({ name, paths: [...paths], status, files });
		}
		await writeFile(path.join(site, "pages.json"), JSON.stringify(manifest));
		return site;
	}

	it("answers every route of the route table with 200 and its page or the app shell; only an unknown path gets the 404 page", async () => {
		const prerendered = APP_ROUTES.filter((route) => PRERENDERED_SCREENS.includes(route.screen));
		const pages = await writePrerenderedSite([
			...prerendered.map((route) => [route.screen, [route.path], 200] as const),
			["Page Not Found", [], 404],
		]);
		const { app, close } = await createSiteApp(pages);
		try {
			for (const route of APP_ROUTES) {
				// A concrete path of the route: any segment stands for a parameter.
				const concretePath = route.path.replace(/:[^/]+/g, "x");
				const response = await app.request(concretePath);
				const html = await response.text();
				expect({ path: concretePath, status: response.status }).toEqual({
					path: concretePath,
					status: 200,
				});
				expect(html).not.toContain("Page Not Found");
				if (PRERENDERED_SCREENS.includes(route.screen)) {
					expect(html).toContain(`<p>${route.screen} signed-out.offline-engine.en</p>`);
				} else {
					expect(html).toContain('<div id="root"></div>');
				}
			}
			const unknown = await app.request("/account/nothing-here");
			expect(unknown.status).toBe(404);
			expect(await unknown.text()).toContain("Page Not Found");
		} finally {
			await close();
		}
	});

	it("answers each prerendered route with its page in the variant the request calls for, and unknown paths with the 404 page", async () => {
		const pages = await writePrerenderedSite([
			["home", ["/"], 200],
			["login", ["/login"], 200],
			["not-found", [], 404],
		]);
		const { app, close } = await createSiteApp(pages);
		const read = async (route: string, headers: Record<string, string> = {}) => {
			const response = await app.request(route, { headers });
			const html = await response.text();
			const boot = /<script type="application\/json" id="boot-state">(.*?)<\/script>/.exec(
				html,
			)?.[1];
			return {
				status: response.status,
				html,
				boot: boot ? (JSON.parse(boot) as unknown) : undefined,
				hasSessionPreload: html.includes(
					'<link rel="preload" as="fetch" crossorigin href="/api/auth/get-session">',
				),
				vary: response.headers.get("vary"),
			};
		};
		try {
			// No session cookie: nobody is signed in, and the page says so without a lookup.
			const home = await read("/");
			expect(home).toMatchObject({
				status: 200,
				hasSessionPreload: false,
				vary: "accept-encoding, cookie, accept-language",
			});
			expect(home.html).toContain("<p>home signed-out.offline-engine.en</p>");
			expect(home.boot).toEqual({
				session: "signed-out",
				config: {
					googleEnabled: false,
					imageProvider: "local",
					emailVerificationRequired: false,
					modelChoice: false,
					trash: true,
					sharing: "public",
					shareMaxDays: null,
					enhance: false,
				},
			});
			expect(home.html).not.toContain(BOOT_STATE_PLACEHOLDER);
			const compressed = await app.request("/", { headers: { "accept-encoding": "gzip, br" } });
			expect(compressed.headers.get("content-encoding")).toBe("br");

			// A session cookie: the page of an unknown session, and the lookup preloaded.
			const withCookie = await read("/login/", { cookie: "atelier.session_token=abc.def" });
			expect(withCookie.html).toContain("<p>login unknown.offline-engine.en</p>");
			expect(withCookie).toMatchObject({ status: 200, hasSessionPreload: true });
			expect(withCookie.boot).toMatchObject({ session: "unknown" });

			for (const unknownPath of [
				"/no/such/page",
				"/pages.json",
				"/pages/home.unknown.image-service.en.html",
			]) {
				const notFound = await read(unknownPath);
				expect(notFound.status).toBe(404);
				expect(notFound.html).toContain("<p>not-found signed-out.offline-engine.en</p>");
			}

			// Routes rendered in the browser, and any URL with a query, get the app shell.
			for (const route of ["/generations", "/login?error=access_denied", "/index.html"]) {
				const page = await read(route);
				expect(page.status).toBe(200);
				expect(page.html).toContain('<div id="root"></div>');
				expect(page.boot).toMatchObject({ session: "signed-out" });
			}
		} finally {
			await close();
		}
	});

	it("answers each page in the language the browser chose, else the one it asks for, else English", async () => {
		const pages = await writePrerenderedSite([
			["home", ["/"], 200],
			["not-found", [], 404],
		]);
		const { app, close } = await createSiteApp(pages);
		const read = async (route: string, headers: Record<string, string>) => {
			const response = await app.request(route, { headers });
			expect(response.headers.get("vary")).toBe("accept-encoding, cookie, accept-language");
			return response.text();
		};
		try {
			const german = await read("/", { "accept-language": "de-CH,de;q=0.9,en;q=0.8" });
			expect(german).toContain("<p>home signed-out.offline-engine.de</p>");
			expect(german).toContain('<html lang="de">');
			expect(await read("/", { "accept-language": "fr, en;q=0.5" })).toContain(
				"<p>home signed-out.offline-engine.en</p>",
			);
			// The browser's choice, kept in a cookie, wins over what it asks for.
			expect(await read("/", { "accept-language": "de", cookie: "atelier-language=en" })).toContain(
				"<p>home signed-out.offline-engine.en</p>",
			);
			expect(
				await read("/", {
					"accept-language": "en",
					cookie: "atelier.session_token=abc.def; atelier-language=de",
				}),
			).toContain("<p>home unknown.offline-engine.de</p>");
			expect(await read("/no/such/page", { "accept-language": "de" })).toContain(
				"<p>not-found signed-out.offline-engine.de</p>",
			);
			// The app shell says its language for the browser to load the messages of.
			expect(await read("/generations", { "accept-language": "de" })).toContain('<html lang="de">');
			expect(await read("/generations", {})).toContain('<html lang="en">');
		} finally {
			await close();
		}
	});

	it("serves the web app manifest as application/manifest+json, revalidated", async () => {
		const { app, close } = await createSiteApp();
		try {
			const manifest = await app.request("/manifest.webmanifest");
			expect(manifest.status).toBe(200);
			expect(manifest.headers.get("content-type")).toBe("application/manifest+json");
			expect(manifest.headers.get("cache-control")).toBe("no-cache");
			expect(await manifest.json()).toEqual({ name: "Atelier" });
		} finally {
			await close();
		}
	});

	it("refuses to start without a built index.html", async () => {
		const empty = await mkdtemp(path.join(tmpdir(), "atelier-empty-"));
		await expect(loadStaticSite(empty)).rejects.toThrow(/not built/);
	});
});
