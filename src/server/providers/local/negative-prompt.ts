import {
	findHint,
	findWord,
	LIGHTINGS,
	type Lighting,
	readWords,
	type SceneKind,
} from "./prompt-theme";

/** Things a scene may draw that a negative prompt can leave out. */
export const SCENE_ELEMENTS = [
	"birds",
	"boat",
	"trees",
	"mountains",
	"water",
	"sun",
	"moon",
	"stars",
	"planet",
	"rings",
	"windows",
] as const;
export type SceneElement = (typeof SCENE_ELEMENTS)[number];

/** What a negative prompt asks the engine to leave out, and how it shifts the palette. */
export type Exclusions = {
	elements: ReadonlySet<SceneElement>;
	scenes: ReadonlySet<SceneKind>;
	lightings: ReadonlySet<Lighting>;
	/** OKLCH hues no main colour of the image may come near. */
	hues: readonly number[];
	/** Multiplies the theme's chroma: "vivid" left out makes the image calmer. */
	chroma: number;
	/** Added to the theme's lightness: "dark" left out makes the image lighter. */
	lightness: number;
};

export const NO_EXCLUSIONS: Exclusions = {
	elements: new Set(),
	scenes: new Set(),
	lightings: new Set(),
	hues: [],
	chroma: 1,
	lightness: 0,
};

type NegativeWord = { elements?: SceneElement[]; scenes?: SceneKind[]; hues?: number[] };

// Words that name something drawn. They leave out that thing only, not the palette or the time of
// day the same word suggests in a prompt ("stars" left out keeps night skies, without stars).
// A Map, not an object literal, so words like "constructor" do not find Object.prototype.
const NEGATIVE_WORDS = new Map<string, NegativeWord>(
	Object.entries({
		bird: { elements: ["birds"] },
		flock: { elements: ["birds"] },
		seagull: { elements: ["birds"] },
		gull: { elements: ["birds"] },
		boat: { elements: ["boat"] },
		ship: { elements: ["boat"] },
		sail: { elements: ["boat"] },
		sailboat: { elements: ["boat"] },
		yacht: { elements: ["boat"] },
		tree: { elements: ["trees"], scenes: ["forest"] },
		pine: { elements: ["trees"], scenes: ["forest"] },
		forest: { elements: ["trees"], scenes: ["forest"] },
		woods: { elements: ["trees"], scenes: ["forest"] },
		jungle: { elements: ["trees"], scenes: ["forest"] },
		mountain: { elements: ["mountains"], scenes: ["mountains"] },
		peak: { elements: ["mountains"], scenes: ["mountains"] },
		alps: { elements: ["mountains"], scenes: ["mountains"] },
		water: { elements: ["water"], scenes: ["lake", "ocean"] },
		reflection: { elements: ["water"], scenes: ["lake"] },
		lake: { elements: ["water"], scenes: ["lake"] },
		river: { elements: ["water"], scenes: ["lake"] },
		pond: { elements: ["water"], scenes: ["lake"] },
		sea: { elements: ["water", "boat"], scenes: ["ocean"] },
		ocean: { elements: ["water", "boat"], scenes: ["ocean"] },
		wave: { scenes: ["ocean"] },
		sun: { elements: ["sun"] },
		moon: { elements: ["moon"] },
		star: { elements: ["stars"] },
		planet: { elements: ["planet", "rings"] },
		ring: { elements: ["rings"] },
		window: { elements: ["windows"] },
		city: { elements: ["windows"], scenes: ["city"] },
		building: { elements: ["windows"], scenes: ["city"] },
		skyscraper: { elements: ["windows"], scenes: ["city"] },
		skyline: { scenes: ["city"] },
		// Colour words whose hue the prompt table only gives to one role.
		gold: { hues: [85] },
		golden: { hues: [85] },
		brass: { hues: [85] },
		rust: { hues: [45] },
		sepia: { hues: [60] },
	} satisfies Record<string, NegativeWord>),
);

/**
 * Reads what a negative prompt leaves out, as far as the engine's scenes allow:
 * - things drawn: birds, boats, trees (the forest scene and a lake's shore pines), mountains (the
 *   mountain scene, a synthwave sun's ranges; a lake's far ridges become low hills), water (lake
 *   and ocean scenes, a city's river), the sun, the moon, stars, a space scene's planet and rings,
 *   a city's lit windows;
 * - whole scenes a word suggests in a prompt ("desert" leaves out dunes, "neon" synthwave);
 * - times of day ("night", "sunset", "morning");
 * - colour words ("red", "gold", "teal"): the sky, horizon, light, land and accent colours keep
 *   clear of that hue, and "vivid", "dark", "pastel"... push colour strength and lightness the
 *   other way.
 * It cannot leave out what it never draws (people, animals, text: the engine draws none), the sky
 * or the ground themselves, and colours met in passing: a gradient between two kept colours may
 * cross a left-out hue, and a few details take fixed or derived hues (warm window light, a
 * synthwave sun's bands, a space scene's contrasting planet). When every scene is left out, one is
 * still drawn; when every time of day is, the prompt's own lighting is used.
 */
export function readNegativePrompt(negativePrompt: string | null): Exclusions {
	if (negativePrompt === null) return NO_EXCLUSIONS;
	const elements = new Set<SceneElement>();
	const scenes = new Set<SceneKind>();
	const lightings = new Set<Lighting>();
	const hues: number[] = [];
	let chroma = 1;
	let lightness = 0;
	for (const word of readWords(negativePrompt)) {
		const named = findWord(NEGATIVE_WORDS, word);
		if (named) {
			for (const element of named.elements ?? []) elements.add(element);
			for (const scene of named.scenes ?? []) scenes.add(scene);
			hues.push(...(named.hues ?? []));
			continue;
		}
		const hint = findHint(word);
		if (!hint) continue;
		if (hint.hue !== undefined) hues.push(hint.hue);
		// Only the scene a word mainly suggests: "mountain" leaves out mountains, not lakes too.
		const scene = hint.scenes?.[0];
		if (scene) scenes.add(scene);
		if (hint.lighting) lightings.add(hint.lighting);
		chroma /= hint.chroma ?? 1;
		lightness -= hint.lightness ?? 0;
	}
	return { elements, scenes, lightings, hues, chroma, lightness };
}

/** Whether a time of day may be drawn; when the negative prompt leaves out all four, any may. */
export function isLightingAllowed(exclusions: Exclusions, lighting: Lighting): boolean {
	return exclusions.lightings.size >= LIGHTINGS.length || !exclusions.lightings.has(lighting);
}

// How far a kept colour stays from a left-out hue: beyond the ±14° each image shifts its palette,
// and wide enough that "red" also keeps out crimson and scarlet.
const HUE_CLEARANCE = 45;

/** The hue moved just clear of every left-out hue, to the side it already lies on. */
export function avoidHues(hue: number, excluded: readonly number[]): number {
	let result = hue;
	// Two left-out hues close together can push a colour back and forth; a few rounds settle it.
	for (let round = 0; round <= excluded.length; round++) {
		let isClear = true;
		for (const avoided of excluded) {
			const distance = signedHueDistance(result, avoided);
			if (Math.abs(distance) >= HUE_CLEARANCE) continue;
			result = avoided + (distance < 0 ? -HUE_CLEARANCE : HUE_CLEARANCE);
			isClear = false;
		}
		if (isClear) break;
	}
	return result;
}

/** From `to` to `from` the short way round, in (-180, 180]. */
export function signedHueDistance(from: number, to: number): number {
	const delta = (((from - to) % 360) + 360) % 360;
	return delta > 180 ? delta - 360 : delta;
}
