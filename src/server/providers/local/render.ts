import sharp from "sharp";
import { type AspectRatio, sizeForAspectRatio } from "../../../shared/generations/aspect-ratios";
import { runImageWork } from "../../images/image-work";
import type { ImageInstruction } from "../types";
import { blendWithReference, repaintRegion, resampleImage } from "./image-input";
import { createLook, type Look } from "./look";
import {
	type Exclusions,
	isLightingAllowed,
	NO_EXCLUSIONS,
	readNegativePrompt,
	SCENE_ELEMENTS,
	type SceneElement,
} from "./negative-prompt";
import {
	LIGHTINGS,
	type Lighting,
	type PromptTheme,
	readPromptTheme,
	SCENE_KINDS,
	type SceneKind,
} from "./prompt-theme";
import { createRandom, shuffle } from "./random";
import { drawScene } from "./scenes";
import { createCanvas, toSvgDocument } from "./svg";

/**
 * What to render. A null (or absent) seed renders as the engine did before seeds existed, from the
 * prompt alone: generations made then are rendered again from their input after a restart.
 */
export type RenderInput = {
	prompt: string;
	aspectRatio: AspectRatio;
	count: number;
	seed?: number | null;
	negativePrompt?: string | null;
	/** The image a variation or an edit repaints, or an upscale resamples. */
	image?: ImageInstruction;
};
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
export type ImagePlan = { kind: SceneKind; lighting: Lighting; seed: number };

/** One image before it is rasterised: its plan, its colours, what it drew, and the SVG itself. */
export type ComposedImage = {
	plan: ImagePlan;
	look: Look;
	elements: SceneElement[];
	svg: string;
	width: number;
	height: number;
};

/**
 * Renders `count` distinct images, offline. The same input always gives byte-identical images:
 * everything is drawn from PRNGs seeded by the prompt's hash (and the seed, when there is one).
 */
export async function renderImages(
	input: RenderInput,
	onImageDrawn?: (drawn: number, count: number) => void,
): Promise<RenderedImage[]> {
	const { image: instruction } = input;
	if (instruction?.kind === "upscale") {
		const upscaled = await runImageWork(() =>
			resampleImage(instruction.image, instruction.factor, JPEG_OPTIONS),
		);
		onImageDrawn?.(1, 1);
		return [upscaled];
	}
	const composed = composeImages(input);
	let drawn = 0;
	// Each rasterisation runs on a libuv worker thread, in its turn of the process's image work;
	// only the SVG text is built on this one.
	return Promise.all(
		composed.map(async (image) => {
			const rendered = await runImageWork(() =>
				instruction?.kind === "reference"
					? rasteriseOver(image, instruction)
					: instruction?.kind === "region"
						? rasteriseRegion(image, instruction)
						: rasterise(image.svg, image.width, image.height),
			);
			drawn += 1;
			onImageDrawn?.(drawn, composed.length);
			return rendered;
		}),
	);
}

/** The images of a render as SVG with what each shows; pure and synchronous. */
export function composeImages(input: RenderInput): ComposedImage[] {
	const { width, height } = sizeForAspectRatio(input.aspectRatio, LONG_SIDE);
	const count = Math.max(0, Math.floor(input.count));
	const seed = input.seed ?? null;
	const exclusions = readNegativePrompt(input.negativePrompt ?? null);
	const theme = applyExclusions(readPromptTheme(input.prompt, seed), exclusions);
	return Array.from({ length: count }, (_, index) =>
		composeImage(theme, planImage(theme, index, seed !== null, exclusions), exclusions, {
			width,
			height,
		}),
	);
}

function planImage(
	theme: PromptTheme,
	index: number,
	isSeeded: boolean,
	exclusions: Exclusions = NO_EXCLUSIONS,
): ImagePlan {
	const order = chooseSceneOrder(theme, isSeeded, exclusions);
	const kind = order[index % order.length] ?? "ribbons";
	return {
		kind,
		lighting: chooseLighting(theme, index, exclusions),
		// Each image has its own stream, from the theme's seed (the prompt and seed) and its index.
		seed: (theme.seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0,
	};
}

/**
 * The scenes images cycle through: those the prompt names, else a seeded shuffle of the defaults,
 * less the ones the negative prompt leaves out. With a seed the cycle starts at a seeded scene, so
 * the first image of "a forest lake" may be the lake.
 */
function chooseSceneOrder(
	theme: PromptTheme,
	isSeeded: boolean,
	exclusions: Exclusions,
): readonly SceneKind[] {
	const isKept = (scene: SceneKind): boolean => !exclusions.scenes.has(scene);
	const named = theme.scenes.filter(isKept);
	if (named.length > 0) {
		if (!isSeeded) return named;
		const start = theme.seed % named.length;
		return [...named.slice(start), ...named.slice(0, start)];
	}
	const defaults = shuffle(DEFAULT_SCENES, createRandom(theme.seed)).filter(isKept);
	if (defaults.length > 0) return defaults;
	// Every default is left out: any scene that is not, and ribbons if none is left at all.
	const others = SCENE_KINDS.filter(isKept);
	return others.length > 0 ? others : ["ribbons"];
}

function chooseLighting(theme: PromptTheme, index: number, exclusions: Exclusions): Lighting {
	const isAllowed = (lighting: Lighting): boolean => isLightingAllowed(exclusions, lighting);
	const named = theme.lighting;
	if (named && isAllowed(named)) {
		// Mostly the time of day the prompt asks for, with one neighbouring hour for variety.
		const neighbour = NEIGHBOUR_LIGHTING[named];
		return index % 4 === 2 && isAllowed(neighbour) ? neighbour : named;
	}
	// The first allowed time of day from a seeded start; with nothing left out, that start itself.
	for (let step = 0; step < LIGHTINGS.length; step++) {
		const lighting = LIGHTINGS[(theme.seed + index + step) % LIGHTINGS.length] ?? "dusk";
		if (isAllowed(lighting)) return lighting;
	}
	return "dusk";
}

const NEIGHBOUR_LIGHTING: Record<Lighting, Lighting> = {
	dawn: "day",
	day: "dusk",
	dusk: "night",
	night: "dusk",
};

/** The theme with the negative prompt's shifts in colour strength and lightness. */
function applyExclusions(theme: PromptTheme, exclusions: Exclusions): PromptTheme {
	if (exclusions === NO_EXCLUSIONS) return theme;
	return {
		...theme,
		chroma: Math.min(1.5, Math.max(0.15, theme.chroma * exclusions.chroma)),
		lightness: Math.min(0.12, Math.max(-0.12, theme.lightness + exclusions.lightness)),
	};
}

function composeImage(
	theme: PromptTheme,
	plan: ImagePlan,
	exclusions: Exclusions,
	size: { width: number; height: number },
): ComposedImage {
	const { width, height } = size;
	const random = createRandom(plan.seed);
	const look = createLook(theme, plan.lighting, random, exclusions.hues);
	const canvas = createCanvas(width, height, random, look, exclusions.elements);
	drawScene(canvas, plan.kind);
	return {
		plan,
		look,
		elements: SCENE_ELEMENTS.filter((element) => canvas.drawn.has(element)),
		svg: toSvgDocument(canvas),
		width,
		height,
	};
}

// JPEG rather than WebP: at the quality that keeps the grain, WebP smears it into blotches. The
// mozjpeg table cuts about a tenth of the bytes for nothing. Trellis quantisation would cut about a
// tenth more, but it takes three to four times as long to encode (10 ms a megapixel becomes 31 to
// 43 ms), a seventh of what an image costs under a crowd (docs/decisions/044-the-cores-a-generation-takes.md);
// the rest of `mozjpeg: true` (progressive scan search) costs a third more again for about 4%.
const JPEG_OPTIONS = {
	quality: 88,
	quantisationTable: 3,
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

/**
 * A render repainting a reference: the engine's own picture for the prompt and seed, blended with
 * the reference as far as the strength says, then finished like any render (grain, JPEG).
 */
async function rasteriseOver(
	image: ComposedImage,
	reference: Extract<ImageInstruction, { kind: "reference" }>,
): Promise<RenderedImage> {
	const own = await sharp(Buffer.from(image.svg)).removeAlpha().raw().toBuffer({
		resolveWithObject: true,
	});
	const blended = await blendWithReference(own, reference.image, reference.strength);
	const { width, height, channels } = own.info;
	const data = await sharp(blended, { raw: { width, height, channels } })
		.composite([{ input: getGrainTile(), raw: GRAIN_RAW, tile: true, blend: "soft-light" }])
		.removeAlpha()
		.jpeg(JPEG_OPTIONS)
		.toBuffer();
	return { data, contentType: CONTENT_TYPE, width, height };
}

/**
 * A render repainting a region of an image: only the masked pixels change (repaintRegion), the
 * result the image's own size, as PNG so every pixel outside the mask is kept exactly.
 */
async function rasteriseRegion(
	image: ComposedImage,
	region: Extract<ImageInstruction, { kind: "region" }>,
): Promise<RenderedImage> {
	const own = await sharp(Buffer.from(image.svg)).removeAlpha().raw().toBuffer({
		resolveWithObject: true,
	});
	const data = await repaintRegion(own, region);
	return { data, contentType: "image/png", width: region.image.width, height: region.image.height };
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
