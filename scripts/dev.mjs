// `npm run dev`: the server rebuilt and restarted on change, and Vite's dev server for the web app
// on http://localhost:5173 (it proxies /api to the server, so the browser sees one origin).
import { spawn } from "node:child_process";
import { context } from "esbuild";
import { serverBuildOptions } from "./server-build-options.mjs";

const serverContext = await context({ ...serverBuildOptions, logLevel: "info" });
await serverContext.rebuild();
await serverContext.watch();

const env = {
	...process.env,
	NODE_ENV: "development",
	BASE_URL: process.env.BASE_URL ?? "http://localhost:5173",
	LOG_LEVEL: process.env.LOG_LEVEL ?? "debug",
};
const children = [
	spawn(process.execPath, ["--enable-source-maps", "--watch", "dist/server/main.js"], {
		stdio: "inherit",
		env,
	}),
	spawn("npx", ["vite"], { stdio: "inherit", env }),
];
const stop = async () => {
	for (const child of children) child.kill("SIGTERM");
	await serverContext.dispose();
	process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
