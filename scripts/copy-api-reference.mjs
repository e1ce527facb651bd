// Copies Scalar's standalone API reference into the built web app, so /api/docs loads it from
// Atelier's own origin (the app runs offline; no CDN). Only that page asks for it.
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The package's exports name no browser bundle, so its folder is found from its main module.
const main = fileURLToPath(import.meta.resolve("@scalar/api-reference"));
const source = path.join(path.dirname(main), "browser/standalone.js");
const target = path.resolve("dist/web/api-reference/scalar-standalone.js");
await mkdir(path.dirname(target), { recursive: true });
await copyFile(source, target);
console.log(
	`copied ${path.relative(process.cwd(), source)} to ${path.relative(process.cwd(), target)}`,
);
