import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { expect, it, onTestFinished } from "vitest";

const run = promisify(execFile);
const THEMES = ["light", "dark"] as const;

it("keeps the grid's committed tiles as the script draws them", async () => {
	const folder = await mkdtemp(path.join(tmpdir(), "background-tiles-"));
	onTestFinished(() => rm(folder, { recursive: true, force: true }));

	await run(process.execPath, ["scripts/make-background-tiles.mjs", folder]);

	for (const theme of THEMES) {
		const drawn = await readFile(path.join(folder, `grid-${theme}.png`));
		const committed = await readFile(`src/web/patterns/grid-${theme}.png`);
		// Run `node scripts/make-background-tiles.mjs` after changing a line colour.
		expect({ theme, isSame: drawn.equals(committed) }).toEqual({ theme, isSame: true });
	}
});

it("draws a 28 px tile with a line along its top and left edges, transparent elsewhere", async () => {
	for (const theme of THEMES) {
		const { data, info } = await sharp(`src/web/patterns/grid-${theme}.png`)
			.ensureAlpha()
			.raw()
			.toBuffer({ resolveWithObject: true });
		const alphaAt = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
		const rgbaAt = (x: number, y: number) =>
			[...data.subarray((y * info.width + x) * 4, (y * info.width + x + 1) * 4)].join(",");

		expect([info.width, info.height]).toEqual([28, 28]);
		expect(rgbaAt(14, 0)).toBe(theme === "light" ? "15,23,42,11" : "255,255,255,8");
		expect(rgbaAt(0, 27)).toBe(rgbaAt(14, 0));
		expect([alphaAt(1, 1), alphaAt(14, 14), alphaAt(27, 27)]).toEqual([0, 0, 0]);
	}
});
