// Prerenders the screens a signed-out visitor can reach first into dist/web/pages/, after
// `vite build` (docs/decisions/012-prerendering-and-hydration.md). Bundles src/web/prerender.tsx
// for Node with the project's Vite config, renders every page in each variant of the boot state
// (session cookie or not, offline engine or an image service) into the built index.html, names
// each page's on-demand screen code in <link rel="modulepreload">, puts the stylesheet inside the
// page and, in place of the app's entry, a loader that starts the app after the first paint, in
// every language with its `<html lang>` (docs/decisions/037-languages.md), and
// writes pages.json, which the server reads to answer each route with its page. Which routes are
// prerendered is said by the route table (src/shared/core/app-routes.ts, through src/web/app/routes/pages.ts).
// Fails if a page would carry a script.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build as bundleForBrowser } from "esbuild";
import { build } from "vite";

const root = process.cwd();
const webRoot = path.join(root, "dist/web");
const bundleDir = path.join(root, ".tmp/prerender");
const ROOT_ELEMENT = '<div id="root"></div>';
const PLACEHOLDER = "<!--app-boot-state-->";
const SESSIONS = ["signed-out", "unknown"];
const IMAGE_PROVIDERS = [
	["offline-engine", "local"],
	["image-service", "prerender"],
];

await build({
	configFile: path.join(root, "vite.config.ts"),
	logLevel: "warn",
	build: {
		ssr: path.join(root, "src/web/prerender.tsx"),
		outDir: bundleDir,
		emptyOutDir: true,
		sourcemap: false,
		manifest: false,
		copyPublicDir: false,
	},
});
const bundle = (await readdir(bundleDir)).find((file) => /^prerender\.m?js$/.test(file));
if (!bundle) throw new Error(`no prerender bundle in ${bundleDir}`);
const { renderPage, PRERENDERED_PAGES, LANGUAGES } = await import(
	pathToFileURL(path.join(bundleDir, bundle)).href
);

const template = await readFile(path.join(webRoot, "index.html"), "utf8");
if (!template.includes(ROOT_ELEMENT) || !template.includes(PLACEHOLDER)) {
	throw new Error("dist/web/index.html has no empty #root or no boot-state placeholder");
}
const clientManifestPath = path.join(webRoot, ".vite/manifest.json");
const clientManifest = JSON.parse(await readFile(clientManifestPath, "utf8"));

/** The built chunks of a source module and of everything it imports statically. */
function collectChunks(moduleKey, found = new Set()) {
	const chunk = clientManifest[moduleKey];
	if (!chunk) throw new Error(`${moduleKey} is not in Vite's manifest`);
	if (found.has(chunk.file)) return found;
	found.add(chunk.file);
	for (const imported of chunk.imports ?? []) collectChunks(imported, found);
	return found;
}

/**
 * A prerendered page paints without its scripts, which only make it interactive: it names them in
 * inert links (`<link data-app-entry>`, `<link data-app-module>`), and its one script, the loader,
 * turns them into module preloads and imports the entry once the page is on the screen. Fetched
 * with the page, the scripts took the CPU (network, parsing) that the first frame's rasterization
 * needed. (The app shell, index.html, needs them to paint anything and keeps them as they are.)
 */
function startAfterFirstPaint(html, loaderUrl) {
	const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
	const entryUrl = entry.exec(html)?.[1];
	if (!entryUrl) throw new Error("dist/web/index.html has no module script");
	return html
		.replace(
			entry,
			`<link data-app-entry crossorigin href="${entryUrl}">` +
				`<script type="module" crossorigin src="${loaderUrl}"></script>`,
		)
		.replace(
			/<link rel="modulepreload" crossorigin href=/g,
			"<link data-app-module crossorigin href=",
		);
}

/**
 * The script of a prerendered page, src/web/first-paint-loader.ts, bundled on its own into
 * assets/: it starts the app only once the page's first content is on the screen. Returns its URL.
 */
async function writeFirstPaintLoader() {
	const result = await bundleForBrowser({
		entryPoints: [path.join(root, "src/web/first-paint-loader.ts")],
		bundle: true,
		format: "esm",
		target: "es2022",
		minify: true,
		write: false,
	});
	const code = result.outputFiles[0]?.contents;
	if (!code) throw new Error("esbuild wrote no first-paint loader");
	const hash = createHash("sha256").update(code).digest("base64url").slice(0, 8);
	const file = `assets/first-paint-loader-${hash}.js`;
	await writeFile(path.join(webRoot, file), code);
	return `/${file}`;
}

/**
 * The stylesheet, the one file a prerendered page waits for to paint, goes inside the page, in a
 * `<style>` before the scripts (the CSP allows inline styles, not scripts): the page then paints
 * after one round trip. As a file it was asked for beside the scripts, and a busy server answered
 * it behind the app's 90 kB entry. The app shell keeps the file, which its later pages share.
 */
async function inlineStylesheets(html) {
	const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g)];
	let styles = "";
	let rest = html;
	for (const [link, file] of links) {
		const css = await readFile(path.join(webRoot, file), "utf8");
		if (/<\/style/i.test(css)) throw new Error(`${file} cannot be inlined: it holds </style`);
		styles += `<style>${css}</style>`;
		rest = rest.replace(link, "");
	}
	const at = rest.search(/<link rel="modulepreload"|<script type="module"|<!--app-boot-state-->/);
	if (at < 0) throw new Error("dist/web/index.html has no scripts or boot-state placeholder");
	return `${rest.slice(0, at)}${styles}${rest.slice(at)}`;
}

/**
 * A prerendered page's first frame is its content on the plain canvas colour; the loader draws the
 * background pattern once that frame is on the screen. Rasterising the pattern's two gradients over
 * the whole window was the largest part of the first frame's work (decision 045). Without
 * JavaScript the stylesheet draws it at once (`@media (scripting: enabled)`).
 */
function patternAfterFirstPaint(html) {
	const body = /<body data-pattern="([a-z]+)">/;
	if (!body.test(html)) throw new Error("dist/web/index.html has no <body data-pattern>");
	return html.replace(body, '<body data-pattern="$1" data-pattern-after-paint>');
}

/** A prerendered page reads without JavaScript: the app shell's note that it needs it goes. */
function removeNoScriptNote(html) {
	return html.replace(/\s*<noscript>[\s\S]*?<\/noscript>/, "");
}

const loaderUrl = await writeFirstPaintLoader();
const pageTemplate = await inlineStylesheets(
	patternAfterFirstPaint(startAfterFirstPaint(removeNoScriptNote(template), loaderUrl)),
);
const entryChunks = collectChunks("index.html");
await mkdir(path.join(webRoot, "pages"), { recursive: true });
const manifest = { pages: [] };
for (const page of PRERENDERED_PAGES) {
	const screenChunks = new Set();
	for (const moduleKey of page.screenModules) {
		for (const file of collectChunks(moduleKey)) if (!entryChunks.has(file)) screenChunks.add(file);
	}
	const preloads = [...screenChunks]
		.map((file) => `<link data-app-module crossorigin href="/${file}">`)
		.join("");
	const files = {};
	for (const session of SESSIONS) {
		for (const [engine, imageProvider] of IMAGE_PROVIDERS) {
			for (const language of LANGUAGES) {
				const state = { session, config: { googleEnabled: false, imageProvider } };
				const html = await renderPage(page.renderPath, state, language);
				if (/<script\b/i.test(html)) {
					throw new Error(
						`the prerender of ${page.renderPath} holds a script, which the CSP forbids`,
					);
				}
				const file = `pages/${page.name}.${session}.${engine}.${language}.html`;
				const document = pageTemplate
					.replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
					.replace(PLACEHOLDER, `${preloads}${PLACEHOLDER}`)
					.replace(ROOT_ELEMENT, `<div id="root">${html}</div>`);
				await writeFile(path.join(webRoot, file), document);
				files[`${session}.${engine}.${language}`] = file;
			}
		}
	}
	manifest.pages.push({ name: page.name, paths: page.paths, status: page.status, files });
}
await writeFile(path.join(webRoot, "pages.json"), `${JSON.stringify(manifest, null, "\t")}\n`);
// Vite's manifest was only needed here: the server must not publish it.
await rm(path.join(webRoot, ".vite"), { recursive: true, force: true });
console.log(
	`prerendered ${manifest.pages.length} pages x ${SESSIONS.length * IMAGE_PROVIDERS.length * LANGUAGES.length} variants into ${path.relative(root, path.join(webRoot, "pages"))}`,
);
