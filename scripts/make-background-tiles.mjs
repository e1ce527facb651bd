// Draws the tiles of the page's grid pattern (src/web/patterns/grid-light.png, grid-dark.png) with
// sharp: 28 px square, a 1 px line along the top and the left edge, in each theme's line colour
// (below: this is where the pattern's colours live). styles.css repeats the tile under the page;
// the build puts these files inside the stylesheet as data URLs (they are well under Vite's inlining
// limit), so a prerendered page still paints without another request. The pattern was two linear
// gradients tiled every 28 px, which the browser rasterized a tile at a time, about 1,300 of them
// over a 1280x800 screen (docs/decisions/043-the-first-paints-pixels.md).
// Run after changing a colour: `node scripts/make-background-tiles.mjs [folder]` (the folder
// defaults to src/web/patterns); the PNGs are committed, and make-background-tiles.test.ts fails
// while they are not what this script draws.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const TILE_SIZE = 28;
/** The line of each theme (#rrggbbaa): slate-900 at 4 % on the light canvas, white at 3 % on the dark. */
const LINE_COLOURS = { light: "0f172a0b", dark: "ffffff08" };

/**
 * One tile's RGBA pixels. Where the lines cross, the two gradients laid the colour twice (a dot a
 * few levels darker); the tile lays it once, which keeps the PNG to two colours and the first page's
 * CSS within its budget (decision 005).
 */
function drawTile(hex) {
	const colour = [0, 2, 4, 6].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
	const pixels = Buffer.alloc(TILE_SIZE * TILE_SIZE * 4);
	for (let at = 0; at < TILE_SIZE; at += 1) {
		pixels.set(colour, at * 4);
		pixels.set(colour, at * TILE_SIZE * 4);
	}
	return pixels;
}

/**
 * The PNG without its ancillary chunks but the transparency (`tRNS`): sharp writes the pixel
 * density (`pHYs`), which a background image does not read and the first page's CSS would carry.
 */
function keepEssentialChunks(png) {
	const kept = [png.subarray(0, 8)];
	for (let at = 8; at < png.length; ) {
		const type = png.toString("latin1", at + 4, at + 8);
		const end = at + 12 + png.readUInt32BE(at);
		if (/^[A-Z]/.test(type) || type === "tRNS") kept.push(png.subarray(at, end));
		at = end;
	}
	return Buffer.concat(kept);
}

const outDir = path.resolve(process.argv[2] ?? "src/web/patterns");
await mkdir(outDir, { recursive: true });
for (const [theme, hex] of Object.entries(LINE_COLOURS)) {
	const png = await sharp(drawTile(hex), {
		raw: { width: TILE_SIZE, height: TILE_SIZE, channels: 4 },
	})
		.png({ compressionLevel: 9, palette: true, colours: 2 })
		.toBuffer();
	const file = path.join(outDir, `grid-${theme}.png`);
	await writeFile(file, keepEssentialChunks(png));
	console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
