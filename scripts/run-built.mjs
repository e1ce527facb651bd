// `npm run backup` and `npm run restore`: run a command of the built server (dist/server/<name>.js),
// which `npm run build` (or `npm start`) makes, in this process.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [name, ...args] = process.argv.slice(2);
const built = path.resolve("dist", "server", `${name}.js`);
if (!existsSync(built)) {
	process.stderr.write(`${built} is missing: run \`npm run build\` (or \`npm start\`) first.\n`);
	process.exit(1);
}
process.argv = [process.argv[0], built, ...args];
await import(pathToFileURL(built).href);
