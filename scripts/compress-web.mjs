// Writes .br and .gz beside each compressible file of the built web app, so the server sends
// precompressed bytes at the best ratio instead of compressing on every request. HTML pages are
// left out: the server puts each page's boot state in first and compresses the result itself
// (src/server/http/static-site.ts), and pages.json is read by the server only.
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve("dist/web");
const compressible = new Set([".js", ".css", ".svg", ".json", ".txt", ".webmanifest"]);
const serverOnly = new Set(["pages.json"]);

const entries = await readdir(root, { withFileTypes: true, recursive: true });
let count = 0;
for (const entry of entries) {
	if (!entry.isFile() || !compressible.has(path.extname(entry.name))) continue;
	if (serverOnly.has(entry.name)) continue;
	const file = path.join(entry.parentPath, entry.name);
	const body = await readFile(file);
	if (body.length < 512) continue;
	await writeFile(
		`${file}.br`,
		brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
	);
	await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
	count += 1;
}
console.log(`compressed ${count} files in ${path.relative(process.cwd(), root)}`);
