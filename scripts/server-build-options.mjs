// How the server is bundled, shared by `npm run build` and `npm run dev`: one file,
// dependencies left in node_modules.
export const serverBuildOptions = {
	entryPoints: ["src/server/main.ts"],
	outfile: "dist/server/main.js",
	bundle: true,
	platform: "node",
	target: "node20",
	format: "esm",
	packages: "external",
	sourcemap: true,
};

/** The server's commands (`npm run backup`, `npm run restore`), bundled beside it the same way. */
export const serverCommandBuildOptions = [
	{ entryPoints: ["src/server/backup/backup-cli.ts"], outfile: "dist/server/backup.js" },
	{ entryPoints: ["src/server/backup/restore-cli.ts"], outfile: "dist/server/restore.js" },
].map((command) => ({ ...serverBuildOptions, ...command }));
