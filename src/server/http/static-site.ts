import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Context } from "hono";

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

async function listFiles(directory: string): Promise<string[]> {
	const entries = await readdir(directory, { withFileTypes: true, recursive: true });
	return entries
		.filter((entry) => entry.isFile())
		.map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The built web app, read into memory once at start: it is small, and serving from memory means no
 * path from a URL ever reaches the file system. Vite's hashed files under /assets are immutable.
 */
export type StaticSite = {
	serve(context: Context): Response | undefined;
};

export async function loadStaticSite(directory: string): Promise<StaticSite> {
	const files = new Map<string, StaticFile>();
	const paths = await listFiles(directory);
	const present = new Set(paths);
	for (const filePath of paths) {
		if (filePath.endsWith(".br") || filePath.endsWith(".gz")) continue;
		const urlPath = `/${path.relative(directory, filePath).split(path.sep).join("/")}`;
		const body = await readFile(filePath);
		const extension = path.extname(filePath);
		files.set(urlPath, {
			body,
			brotli: present.has(`${filePath}.br`) ? await readFile(`${filePath}.br`) : undefined,
			gzip: present.has(`${filePath}.gz`) ? await readFile(`${filePath}.gz`) : undefined,
			contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
			cacheControl: urlPath.startsWith("/assets/") ? IMMUTABLE : REVALIDATE,
			etag: `"${body.length.toString(16)}-${Buffer.from(await crypto.subtle.digest("SHA-1", body))
				.toString("hex")
				.slice(0, 16)}"`,
		});
	}
	const index = files.get("/index.html");
	if (!index)
		throw new Error(
			`The web app is not built: ${directory}/index.html is missing. Run npm run build.`,
		);

	const respond = (context: Context, file: StaticFile): Response => {
		const headers = new Headers({
			"content-type": file.contentType,
			"cache-control": file.cacheControl,
			etag: file.etag,
			vary: "accept-encoding",
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
		return new Response(payload, { status: 200, headers });
	};

	return {
		serve(context) {
			const method = context.req.method;
			if (method !== "GET" && method !== "HEAD") return undefined;
			const file = files.get(context.req.path);
			if (file) return respond(context, file);
			// A missing hashed asset is a real 404, not the app shell.
			if (context.req.path.startsWith("/assets/")) return undefined;
			// Every other path is a client route: the app shell decides (including its 404 page).
			return respond(context, index);
		},
	};
}
