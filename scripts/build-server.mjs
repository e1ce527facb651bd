// Bundles the server into dist/server/main.js.
import { build } from "esbuild";
import { serverBuildOptions } from "./server-build-options.mjs";

await build({ ...serverBuildOptions, logLevel: "warning" });
