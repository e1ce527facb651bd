// Runs a vendor's fake API on 127.0.0.1 by hand, so a provider's configuration can be tried
// without an account: `npm run fake:replicate` (or http, comfyui, openai, fal), with options
// `--port N`, `--latency-ms N` and `--fail <endpoint>:<kind>[:times]`.
// Node 20 cannot run TypeScript, so the fakes are bundled into .tmp/ first, as the server is.
import { mkdir } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}.tmp/fake-provider/fake-runner.mjs`;

await mkdir(`${root}.tmp/fake-provider`, { recursive: true });
await build({
	entryPoints: [`${root}src/server/testing/fakes/fake-runner.ts`],
	outfile,
	bundle: true,
	platform: "node",
	target: "node20",
	format: "esm",
	// Inside the project, so sharp and zod resolve from node_modules.
	packages: "external",
	logLevel: "warning",
});
const { runFakeFromArgs } = await import(pathToFileURL(outfile).href);
await runFakeFromArgs(process.argv.slice(2));
