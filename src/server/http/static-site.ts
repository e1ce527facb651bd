import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Context } from "hono";
import {
	BOOT_STATE_ELEMENT_ID,
	BOOT_STATE_PLACEHOLDER,
	type BootState,
	ENHANCE_ROOT_ATTRIBUTE,
	type PagesManifest,
	readPrerenderVariant,
} from "../../shared/account/boot-state";
import type { PublicConfig } from "../../shared/account/session";
import { findAppRoute } from "../../shared/core/app-routes";
import type { Language } from "../../shared/i18n/languages";

type StaticFile = {
	body: Buffer;
	brotli: Buffer | undefined;
	gzip: Buffer | undefined;
	contentType: string;
	cacheControl: string;
	etag: string;
};

const CONTENT_TYPES: Record<string, string> = {
	".html": "text/html; charset=utf-8",
	".js": "text/javascript; charset=utf-8",
	".mjs": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".json": "application/json; charset=utf-8",
	".svg": "image/svg+xml",
	".png": "image/png",
	".jpg": "image/jpeg",
	".webp": "image/webp",
	".ico": "image/x-icon",
	".txt": "text/plain; charset=utf-8",
	".webmanifest": "application/manifest+json",
	".map": "application/json; charset=utf-8",
	".woff2": "font/woff2",
};

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";
const HTML = CONTENT_TYPES[".html"] ?? "text/html";
// Files the build writes for the server, not for browsers.
const PAGES_MANIFEST = "pages.json";
const PAGES_FOLDER = "pages/";

async function listFiles(directory: string): Promise<string[]> {
	const entries = await readdir(directory, { withFileTypes: true, recursive: true });
	return entries
		.filter((entry) => entry.isFile())
		.map((entry) => path.join(entry.parentPath, entry.name));
}

function createEtag(body: Buffer): string {
	const digest = createHash("sha1").update(body).digest("hex");
	return `"${body.length.toString(16)}-${digest.slice(0, 16)}"`;
}

/** What the server knows about a request for a page when it answers it. */
type PageContext = {
	/** The config every visitor may know (`GET /api/config`), sent inside the page. */
	publicConfig: PublicConfig;
	/** Whether the request carries a session cookie: without one, nobody is signed in. */
	hasSessionCookie: boolean;
	/** The language the page is written in: the browser's chosen one, else its Accept-Language. */
	language: Language;
};

/**
 * The built web app, read into memory once at start: it is small, and serving from memory means no
 * path from a URL ever reaches the file system. Vite's hashed files under /assets are immutable.
 *
 * Pages: the build prerenders the screens a signed-out visitor reaches first in each variant of
 * the boot state (pages.json, docs/decisions/012-prerendering-and-hydration.md). A page is answered
 * in the variant the request calls for, with its boot state in a JSON element and, when a session
 * cookie came with it, a preload of the session lookup, so the browser asks for it at once
 * alongside the script. Every other route of the route table (src/shared/core/app-routes.ts), and any
 * URL with a query string (a screen may read its query, the prerender cannot), gets the app shell,
 * index.html, with status 200; only a path no route knows gets the 404 page, with status 404. A
 * build without pages.json serves index.html everywhere. Every page is answered in the request's
 * language: the prerender wrote each in every language, and the shell's `<html lang>` says it
 * (docs/decisions/037-languages.md).
 */
export type StaticSite = {
	serve(context: Context, page: PageContext): Response | undefined;
};

type Page = { status: 200 | 404; files: PagesManifest["pages"][number]["files"] };

/** `/login/` and `/login` are one route. */
function normalizePath(pathname: string): string {
	return pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
}

/** The app shell in a language: the browser reads `<html lang>` to load its messages. */
function writeShellLanguage(template: string, language: Language): string {
	return template.replace(/<html lang="[^"]*"/, `<html lang="${language}"`);
}

function renderBootState(template: string, state: BootState): string {
	// `<` escaped, so nothing in the JSON can close the element.
	const json = JSON.stringify(state).replace(/</g, "\\u003c");
	const preload =
		state.session === "unknown"
			? '<link rel="preload" as="fetch" crossorigin href="/api/auth/get-session">'
			: "";
	// Said on <html> as well, for the stylesheet: a prerendered page, written without the config,
	// keeps the Enhance row's place where the server has Enhance (ENHANCE_ROOT_ATTRIBUTE).
	const root = state.config.enhance ? `<html ${ENHANCE_ROOT_ATTRIBUTE}` : "<html";
	return template
		.replace(/<html(?=[\s>])/, root)
		.replace(
			BOOT_STATE_PLACEHOLDER,
			`${preload}<script type="application/json" id="${BOOT_STATE_ELEMENT_ID}">${json}</script>`,
		);
}

export async function loadStaticSite(directory: string): Promise<StaticSite> {
	const files = new Map<string, StaticFile>();
	const templates = new Map<string, string>();
	const paths = await listFiles(directory);
	const present = new Set(paths);
	for (const filePath of paths) {
		if (filePath.endsWith(".br") || filePath.endsWith(".gz")) continue;
		const relative = path.relative(directory, filePath).split(path.sep).join("/");
		const body = await readFile(filePath);
		if (relative === PAGES_MANIFEST || relative.startsWith(PAGES_FOLDER)) {
			templates.set(relative, body.toString("utf8"));
			continue;
		}
		const urlPath = `/${relative}`;
		const extension = path.extname(filePath);
		files.set(urlPath, {
			body,
			brotli: present.has(`${filePath}.br`) ? await readFile(`${filePath}.br`) : undefined,
			gzip: present.has(`${filePath}.gz`) ? await readFile(`${filePath}.gz`) : undefined,
			contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
			cacheControl: urlPath.startsWith("/assets/") ? IMMUTABLE : REVALIDATE,
			etag: createEtag(body),
		});
	}
	const shell = files.get("/index.html");
	if (!shell)
		throw new Error(
			`The web app is not built: ${directory}/index.html is missing. Run npm run build.`,
		);
	const shellTemplate = shell.body.toString("utf8");
	// index.html stays reachable as a file, but only as the app shell with its boot state.
	files.delete("/index.html");

	const manifestText = templates.get(PAGES_MANIFEST);
	const manifest: PagesManifest = manifestText
		? (JSON.parse(manifestText) as PagesManifest)
		: { pages: [] };
	const pagesByPath = new Map<string, Page>();
	let notFoundPage: Page | undefined;
	for (const page of manifest.pages) {
		for (const variant of Object.values(page.files)) {
			if (!templates.has(variant)) throw new Error(`${directory}/${variant} is missing`);
		}
		const entry = { status: page.status, files: page.files };
		for (const pagePath of page.paths) pagesByPath.set(pagePath, entry);
		if (page.status === 404) notFoundPage = entry;
	}

	// Each page in each boot state, made (and compressed) once, when first asked for.
	const rendered = new Map<string, StaticFile>();
	const renderPage = (template: string, state: BootState, language: Language): StaticFile => {
		const key = `${template}\n${language}\n${JSON.stringify(state)}`;
		const cached = rendered.get(key);
		if (cached) return cached;
		const source =
			template === ""
				? writeShellLanguage(shellTemplate, language)
				: (templates.get(template) ?? writeShellLanguage(shellTemplate, language));
		const body = Buffer.from(renderBootState(source, state));
		const file: StaticFile = {
			body,
			brotli: brotliCompressSync(body, {
				params: {
					[constants.BROTLI_PARAM_QUALITY]: 11,
					[constants.BROTLI_PARAM_SIZE_HINT]: body.length,
				},
			}),
			gzip: gzipSync(body, { level: 9 }),
			contentType: HTML,
			cacheControl: REVALIDATE,
			etag: createEtag(body),
		};
		rendered.set(key, file);
		return file;
	};

	const respond = (context: Context, file: StaticFile, status = 200, vary = "accept-encoding") => {
		const headers = new Headers({
			"content-type": file.contentType,
			"cache-control": file.cacheControl,
			etag: file.etag,
			vary,
		});
		if (context.req.header("if-none-match") === file.etag) {
			return new Response(null, { status: 304, headers });
		}
		const accepted = context.req.header("accept-encoding") ?? "";
		let body = file.body;
		if (file.brotli && /\bbr\b/.test(accepted)) {
			body = file.brotli;
			headers.set("content-encoding", "br");
		} else if (file.gzip && /\bgzip\b/.test(accepted)) {
			body = file.gzip;
			headers.set("content-encoding", "gzip");
		}
		headers.set("content-length", String(body.length));
		const payload = context.req.method === "HEAD" ? null : new Uint8Array(body);
		return new Response(payload, { status, headers });
	};

	return {
		serve(context, pageContext) {
			const method = context.req.method;
			if (method !== "GET" && method !== "HEAD") return undefined;
			const file = files.get(context.req.path);
			if (file) return respond(context, file);
			// A missing hashed asset is a real 404, not the app shell.
			if (context.req.path.startsWith("/assets/")) return undefined;

			const state: BootState = {
				session: pageContext.hasSessionCookie ? "unknown" : "signed-out",
				config: pageContext.publicConfig,
			};
			// Pages differ by the session and language cookies and the languages asked for: caches
			// must keep them apart.
			const vary = "accept-encoding, cookie, accept-language";
			const { language } = pageContext;
			const pathname = normalizePath(context.req.path);
			const isShell =
				pathname === "/index.html" ||
				new URL(context.req.url).search !== "" ||
				(!pagesByPath.has(pathname) && findAppRoute(pathname) !== undefined);
			const page = isShell ? undefined : (pagesByPath.get(pathname) ?? notFoundPage);
			if (page) {
				const template = page.files[readPrerenderVariant(state, language)];
				return respond(context, renderPage(template, state, language), page.status, vary);
			}
			// The app shell: the browser renders the route (and decides its 404 page itself).
			return respond(context, renderPage("", state, language), 200, vary);
		},
	};
}
