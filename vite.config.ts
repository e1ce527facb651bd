import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = process.env.API_ORIGIN ?? "http://127.0.0.1:3000";

export default defineConfig({
	root: "src/web",
	publicDir: "public",
	plugins: [react(), tailwindcss()],
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
	},
	server: {
		port: 5173,
		proxy: { "/api": { target: apiTarget, changeOrigin: false } },
	},
});
