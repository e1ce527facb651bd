// Bundles the server into dist/server/main.js, and its commands beside it.
import { build } from "esbuild";
import { serverBuildOptions, serverCommandBuildOptions } from "./server-build-options.mjs";

await build({ ...serverBuildOptions, logLevel: "warning" });
for (const options of serverCommandBuildOptions) await build({ ...options, logLevel: "warning" });
