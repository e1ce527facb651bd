import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
	plugins: [react()],
	test: {
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
