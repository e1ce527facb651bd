import { defineConfig, devices } from "@playwright/test";
import { E2E_BASE_URL } from "./tests/e2e/support/constants";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
	testDir: "tests/e2e",
	globalSetup: "./tests/e2e/support/global-setup.ts",
	fullyParallel: false,
	workers: process.env.CI ? 2 : 2,
	// One retry in CI only: journeys share two cores with the server and Chromium, and a rare timing
	// flake should not hide the rest of the run. Locally a failure fails at once.
	retries: process.env.CI ? 1 : 0,
	timeout: 60_000,
	expect: { timeout: 10_000 },
	reporter: process.env.CI ? [["list"]] : [["list"]],
	outputDir: "test-results",
	use: {
		baseURL: E2E_BASE_URL,
		trace: "retain-on-failure",
		screenshot: "only-on-failure",
	},
	projects: [
		{
			name: "chromium",
			use: {
				...devices["Desktop Chrome"],
				launchOptions: {
					executablePath: chromiumPath,
					args: [
						"--no-sandbox",
						"--disable-gpu",
						"--disable-quic",
						"--no-first-run",
						"--disable-background-networking",
						"--disable-component-update",
						"--disable-sync",
					],
				},
			},
		},
	],
});
