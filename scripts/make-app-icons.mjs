// Draws the installable app's icons (src/web/public/icons/) from the favicon's mark with sharp:
// 192 and 512 px, each plain and maskable (the mark inside the safe zone, the colour to the edges),
// and the tab's icon, 32 px plain (index.html links it: a PNG, which the page decodes at once,
// where an SVG icon is laid out and painted as a document of its own on the page's main thread
// right after its first paint; docs/decisions/012-prerendering-and-hydration.md).
// Run after changing the mark: `node scripts/make-app-icons.mjs`; the PNGs are committed.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const ACCENT = "#6d28d9";
const STAR = "M16 6l2.6 6.4L25 15l-6.4 2.6L16 24l-2.6-6.4L7 15l6.4-2.6z";
const outDir = path.join(process.cwd(), "src/web/public/icons");

/** The mark on a rounded square (plain), or full-bleed with the star in the middle 60 % (maskable). */
function drawMark(isMaskable) {
	const background = isMaskable
		? `<rect width="32" height="32" fill="${ACCENT}"/>`
		: `<rect width="32" height="32" rx="7" fill="${ACCENT}"/>`;
	// A maskable icon's safe zone is the centre circle of 80 % of its width: shrink the star into it.
	const star = isMaskable
		? `<g transform="translate(16 15) scale(0.7) translate(-16 -15)"><path d="${STAR}" fill="#fff"/></g>`
		: `<path d="${STAR}" fill="#fff"/>`;
	return Buffer.from(
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${background}${star}</svg>`,
	);
}

await mkdir(outDir, { recursive: true });
for (const size of [32, 192, 512]) {
	for (const isMaskable of size === 32 ? [false] : [false, true]) {
		const name = `icon${isMaskable ? "-maskable" : ""}-${size}.png`;
		await sharp(drawMark(isMaskable), { density: (72 * size) / 32 })
			.resize(size, size)
			.png({ compressionLevel: 9, palette: true })
			.toFile(path.join(outDir, name));
		console.log(`wrote ${name}`);
	}
}
