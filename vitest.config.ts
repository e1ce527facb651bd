import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
	plugins: [react()],
	test: {
		// Two files at a time, also on a two-core machine (where Vitest would run one): most server
		// files spend their time waiting on spawned processes, PostgreSQL, fakes and timers, not on
		// a core, and the suite took over half an hour one file at a time.
		maxWorkers: 2,
		projects: [
			{
				extends: true,
				test: {
					name: "server",
					environment: "node",
					include: ["src/server/**/*.test.ts", "src/shared/**/*.test.ts", "scripts/**/*.test.ts"],
					globalSetup: ["src/server/testing/global-setup.ts"],
					testTimeout: 30_000,
					hookTimeout: 60_000,
				},
			},
			{
				extends: true,
				test: {
					name: "web",
					environment: "jsdom",
					include: ["src/web/**/*.test.{ts,tsx}"],
					setupFiles: ["src/web/testing/setup.ts"],
					testTimeout: 15_000,
				},
			},
		],
	},
});
