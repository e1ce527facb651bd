import { defineConfig } from "vitest/config";

// `npm run test:container`: builds the image with Podman and runs it. Apart from `npm run test:unit`,
// as it needs Podman and takes minutes.
export default defineConfig({
	test: {
		name: "container",
		environment: "node",
		include: ["tests/container/**/*.test.ts"],
		// Steps run in order against shared images; one file, one worker.
		fileParallelism: false,
		testTimeout: 300_000,
		hookTimeout: 1_200_000,
	},
});
