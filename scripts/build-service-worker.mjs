// Bundles the service worker (src/web/sw.ts) into dist/web/sw.js: its own script at the site's
// root, so its scope is the whole app, outside Vite's hashed assets so its URL never changes, and
// served with Cache-Control: no-cache (src/server/http/static-site.ts). Run after `vite build`,
// which empties dist/web.
import { build } from "esbuild";

await build({
	entryPoints: ["src/web/sw.ts"],
	outfile: "dist/web/sw.js",
	bundle: true,
	platform: "browser",
	target: "es2022",
	format: "iife",
	minify: true,
	sourcemap: true,
	logLevel: "warning",
});
