import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { THEME_SCRIPT } from "./src/shared/account/theme.ts";

const apiTarget = process.env.API_ORIGIN ?? "http://127.0.0.1:3000";

/**
 * The theme's decision, first in every page's head so that it runs before the first paint
 * (docs/decisions/035-dark-mode.md). Inline: as a file it would be a request before the first
 * frame. The server's Content-Security-Policy allows exactly this script by its hash.
 */
function themeScript(): Plugin {
	return {
		name: "atelier-theme-script",
		transformIndexHtml: () => [{ tag: "script", children: THEME_SCRIPT, injectTo: "head-prepend" }],
	};
}

export default defineConfig({
	root: "src/web",
	publicDir: "public",
	plugins: [react(), tailwindcss(), themeScript()],
	build: {
		outDir: "../../dist/web",
		emptyOutDir: true,
		sourcemap: true,
		target: "es2022",
		// For scripts/prerender-web.mjs, which names each prerendered page's screen chunks.
		manifest: true,
		// Every browser the app supports preloads modules itself (Safari since 17); an older one
		// only fetches them a little later. Not shipping the polyfill keeps the first load small.
		modulePreload: { polyfill: false },
		rolldownOptions: {
			output: {
				// The first page's preload list names every lazy chunk: six characters of hash (36
				// bits, ample for a few dozen files a build) instead of eight keep those names short.
				chunkFileNames: "assets/[name]-[hash:6].js",
				codeSplitting: {
					// Everything the first page imports statically goes into its entry chunk. Left to
					// itself, Rolldown split modules the lazy chunks share with the first page (React,
					// the JSX runtime, the error catalogue, the JSON readers) into four small chunks
					// whose number changed with unrelated edits; as separate files they cost the first
					// load about 1.5 kB of gzip (docs/decisions/005-first-load-budget.md).
					// The UI of making images from an image (the actions on a result, the family, the
					// reference's upload, the thumbnail component they and the results show) is shared by the generator's and the history's lazy chunks:
					// one chunk, not eight, each of whose names the first page's preload list carries.
					// Likewise what the header's running count, the history and the generator share of
					// the active generations and the word when one is done (the poll, the notifications
					// and their choices, the history's link to a result, this device's Web Push): one chunk, not
					// three; a chunk of its own would add its name to the first page's preload list.
					groups: [
						{ name: "index", tags: ["$initial"] },
						{
							// The error catalogue, which the first page does not load (it has
							// first-page-errors.ts), with the auth client's conversion of its errors: one
							// chunk of its own, or the catalogue goes with the first group that imports it
							// and the sign-in page would load the image tools for it.
							name: "errors",
							test: /src\/(shared\/core\/errors|web\/lib\/account\/auth-errors)\.ts$/,
						},
						{
							name: "image-input",
							test: /src\/(shared\/image-input\/image-input|web\/lib\/generations\/(image-actions|use-image-action-choices|uploads-requests)|web\/components\/images\/(family-panel|image-action-buttons|thumbnail)|web\/features\/generator\/(results\/result-image|reference\/add-reference-file))\.tsx?$/,
						},
						{
							// Sharing's requests, the share dialog and the link field: one name in the
							// first page's preload lists instead of three.
							name: "sharing",
							test: /src\/(shared\/history\/sharing|web\/lib\/collections\/share-requests|web\/components\/images\/share-(dialog|link-field))\.tsx?$/,
						},
						{
							// What the progress panel, the results, the preview and the history share to
							// show a generation (progress rules, image sources, the recipe's line).
							name: "generation-display",
							// A batch's address goes with them rather than as a chunk of its own.
							test: /src\/(shared\/generations\/(progress|batches)|web\/lib\/generations\/image-sources|web\/features\/generator\/flow\/describe-recipe)\.ts$/,
						},
						{
							// The fields and card of the sign-in, sign-up, recovery and account forms.
							name: "account-forms",
							test: /src\/(shared\/account\/passwords|web\/components\/forms\/(form-card|text-field|password-field|new-password-fields))\.tsx?$/,
						},
						{
							// Icons two or more lazy chunks use; an icon one chunk uses stays in it.
							name: "icons",
							test: /lucide-react\/dist\/esm\/icons\//,
							minShareCount: 2,
						},
						{
							name: "active-generations",
							test: /src\/web\/lib\/generations\/(active-generations|finished-elsewhere|finish-notices|history-link|web-push)\.ts$/,
						},
					],
				},
			},
		},
	},
	server: {
		port: 5173,
		proxy: { "/api": { target: apiTarget, changeOrigin: false } },
	},
});
