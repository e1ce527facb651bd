import sharp from "sharp";
import { type AspectRatio, sizeForAspectRatio } from "../../../shared/aspect-ratios";
import { createLook } from "./look";
import {
	LIGHTINGS,
	type Lighting,
	type PromptTheme,
	readPromptTheme,
	type SceneKind,
} from "./prompt-theme";
import { createRandom, shuffle } from "./random";
import { drawScene } from "./scenes";
import { createCanvas, toSvgDocument } from "./svg";

type RenderInput = { prompt: string; aspectRatio: AspectRatio; count: number };
export type RenderedImage = { data: Buffer; contentType: string; width: number; height: number };

/** Long side of every image, matching what hosted providers return for a "standard" image. */
const LONG_SIDE = 1024;
const CONTENT_TYPE = "image/jpeg";

// Scenes for prompts that name none: all read as a picture whatever the subject.
const DEFAULT_SCENES: readonly SceneKind[] = [
	"mountains",
	"lake",
	"forest",
	"dunes",
	"ocean",
	"ribbons",
	"space",
];

/** What image `index` of a prompt shows; pure, so a resumed job draws the same pictures. */
type ImagePlan = { kind: SceneKind; lighting: Lighting; seed: number };

/**
 * Renders `count` distinct images for a prompt, offline. The same prompt and ratio always give
 * byte-identical images: everything is drawn from a PRNG seeded by the prompt's hash.
 */
export async function renderImages(input: RenderInput): Promise<RenderedImage[]> {
	const { width, height } = sizeForAspectRatio(input.aspectRatio, LONG_SIDE);
	const count = Math.max(0, Math.floor(input.count));
	const theme = readPromptTheme(input.prompt);
	const svgs = Array.from({ length: count }, (_, index) =>
		buildSceneSvg(theme, planImage(theme, index), width, height),
	);
	// Each rasterisation runs on a libuv worker thread; only the SVG text is built on this one.
	return Promise.all(svgs.map((svg) => rasterise(svg, width, height)));
}

function planImage(theme: PromptTheme, index: number): ImagePlan {
	const order =
		theme.scenes.length > 0 ? theme.scenes : shuffle(DEFAULT_SCENES, createRandom(theme.seed));
	const kind = order[index % order.length] ?? "mountains";
	return {
		kind,
		lighting: chooseLighting(theme, index),
		seed: (theme.seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0,
	};
}

function chooseLighting(theme: PromptTheme, index: number): Lighting {
	const named = theme.lighting;
	if (named) {
		// Mostly the time of day the prompt asks for, with one neighbouring hour for variety.
		return index % 4 === 2 ? NEIGHBOUR_LIGHTING[named] : named;
	}
	return LIGHTINGS[(theme.seed + index) % LIGHTINGS.length] ?? "dusk";
}

const NEIGHBOUR_LIGHTING: Record<Lighting, Lighting> = {
	dawn: "day",
	day: "dusk",
	dusk: "night",
	night: "dusk",
};

function buildSceneSvg(theme: PromptTheme, plan: ImagePlan, width: number, height: number): string {
	const random = createRandom(plan.seed);
	const canvas = createCanvas(width, height, random, createLook(theme, plan.lighting, random));
	drawScene(canvas, plan.kind);
	return toSvgDocument(canvas);
}

// JPEG rather than WebP: at the quality that keeps the grain, WebP smears it into blotches. The
// mozjpeg table and trellis quantisation cut about a fifth of the bytes; the rest of `mozjpeg: true`
// (progressive scan search) saves about 4% more for a third more time, so it is left out.
const JPEG_OPTIONS = {
	quality: 88,
	quantisationTable: 3,
	trellisQuantisation: true,
	overshootDeringing: true,
} as const;

async function rasterise(svg: string, width: number, height: number): Promise<RenderedImage> {
	const data = await sharp(Buffer.from(svg))
		.composite([{ input: getGrainTile(), raw: GRAIN_RAW, tile: true, blend: "soft-light" }])
		.removeAlpha()
		.jpeg(JPEG_OPTIONS)
		.toBuffer();
	return { data, contentType: CONTENT_TYPE, width, height };
}

const GRAIN_SIZE = 256;
// Enough to dither 8-bit gradients; stronger grain reads as texture and costs bytes (26 doubles them).
const GRAIN_STRENGTH = 14;
const GRAIN_RAW = { width: GRAIN_SIZE, height: GRAIN_SIZE, channels: 4 } as const;
let grainTile: Buffer | undefined;

/**
 * A fixed tile of soft noise laid over every image: it hides gradient banding (which JPEG
 * otherwise makes worse) and gives a filmic finish. Seeded, so output stays byte-identical.
 */
function getGrainTile(): Buffer {
	if (grainTile) return grainTile;
	const random = createRandom(0x5eed);
	const tile = Buffer.alloc(GRAIN_SIZE * GRAIN_SIZE * 4);
	for (let offset = 0; offset < tile.length; offset += 4) {
		// Sum of two uniforms: a triangular distribution, softer than uniform noise.
		const value = Math.round(128 + (random.next() + random.next() - 1) * GRAIN_STRENGTH);
		tile[offset] = value;
		tile[offset + 1] = value;
		tile[offset + 2] = value;
		tile[offset + 3] = 255;
	}
	grainTile = tile;
	return tile;
}
