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
