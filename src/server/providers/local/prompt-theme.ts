import { hashString } from "./random";

export const SCENE_KINDS = [
	"mountains",
	"lake",
	"forest",
	"dunes",
	"ocean",
	"city",
	"synthwave",
	"space",
	"ribbons",
] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

export const LIGHTINGS = ["dawn", "day", "dusk", "night"] as const;
export type Lighting = (typeof LIGHTINGS)[number];

/** What the words of a prompt suggest: hues (OKLCH degrees) by role, colour strength, scenes. */
export type PromptTheme = {
	seed: number;
	/** Hue of the upper sky (or the main colour of abstract scenes). */
	skyHue: number;
	/** Hue of the glow near the horizon, the sun and the highlights. */
	glowHue: number;
	/** Hue of the land, water or buildings. */
	landHue: number;
	/** Multiplies every chroma: below 1 for muted prompts, above for vivid ones. */
	chroma: number;
	/** Added to every lightness: negative for dark prompts, positive for pale ones. */
	lightness: number;
	/** Scenes the prompt names, in the order it names them; empty when it names none. */
	scenes: SceneKind[];
	/** The time of day the prompt names, if any. */
	lighting: Lighting | undefined;
};

export type ThemeHint = {
	/** A plain colour word: fills the first hue role the prompt has not set yet. */
	hue?: number;
	sky?: number;
	glow?: number;
	land?: number;
	chroma?: number;
	lightness?: number;
	scenes?: SceneKind[];
	lighting?: Lighting;
};

// Hues are OKLCH angles: red ~25, orange ~55, yellow ~100, green ~145, cyan ~200, blue ~260,
// purple ~305, pink ~350. Roles are only set where a word clearly implies them ("forest" is green
// land, not a green sky).
// A Map, not an object literal, so words like "constructor" do not find Object.prototype.
const HINTS = new Map<string, ThemeHint>(
	Object.entries({
		red: { hue: 25 },
		crimson: { hue: 18, chroma: 1.1 },
		scarlet: { hue: 30, chroma: 1.1 },
		ruby: { hue: 15 },
		orange: { hue: 55 },
		amber: { hue: 70 },
		gold: { glow: 85, land: 75, chroma: 1.1 },
		golden: { glow: 85, land: 75, chroma: 1.1 },
		yellow: { hue: 100 },
		lime: { hue: 125 },
		green: { hue: 145 },
		emerald: { hue: 160 },
		mint: { hue: 170, lightness: 0.05 },
		teal: { hue: 190 },
		turquoise: { hue: 195 },
		cyan: { hue: 205 },
		aqua: { hue: 205 },
		blue: { hue: 258 },
		azure: { hue: 240 },
		navy: { hue: 265, lightness: -0.06 },
		indigo: { hue: 280 },
		purple: { hue: 305 },
		violet: { hue: 298 },
		lavender: { hue: 300, lightness: 0.06, chroma: 0.7 },
		magenta: { hue: 330, chroma: 1.2 },
		pink: { hue: 350 },
		rose: { hue: 8 },
		brown: { hue: 50, chroma: 0.6 },
		copper: { hue: 50, chroma: 0.9 },
		bronze: { hue: 65, chroma: 0.8 },
		silver: { chroma: 0.4, lightness: 0.04 },
		grey: { chroma: 0.35 },
		gray: { chroma: 0.35 },
		white: { lightness: 0.06, chroma: 0.7 },
		black: { lightness: -0.07, chroma: 0.75 },
		dark: { lightness: -0.06 },
		noir: { lightness: -0.07, chroma: 0.4 },
		monochrome: { chroma: 0.2 },
		pastel: { lightness: 0.06, chroma: 0.65 },
		vibrant: { chroma: 1.25 },
		vivid: { chroma: 1.25 },
		colorful: { chroma: 1.25 },
		colourful: { chroma: 1.25 },
		muted: { chroma: 0.6 },
		vintage: { glow: 70, chroma: 0.65 },
		sepia: { sky: 60, glow: 80, land: 50, chroma: 0.5 },
		steampunk: { sky: 55, glow: 80, land: 45, chroma: 0.75 },
		brass: { glow: 85, land: 70 },
		rust: { land: 40, glow: 55 },
		anime: { sky: 245, glow: 350, chroma: 1.05, lightness: 0.03 },
		niji: { sky: 245, glow: 350, chroma: 1.05, lightness: 0.03 },
		ghibli: { sky: 235, glow: 95, land: 140, lightness: 0.03 },
		kawaii: { sky: 330, glow: 350, lightness: 0.05, chroma: 0.8 },
		neon: { sky: 300, glow: 345, land: 205, chroma: 1.3, scenes: ["synthwave", "city"] },
		cyberpunk: { sky: 290, glow: 345, land: 205, chroma: 1.3, scenes: ["city", "synthwave"] },
		synthwave: { sky: 295, glow: 350, land: 320, chroma: 1.3, scenes: ["synthwave"] },
		vaporwave: { sky: 300, glow: 350, land: 200, scenes: ["synthwave"] },
		retro: { glow: 60, scenes: ["synthwave"] },
		outrun: { sky: 295, glow: 350, scenes: ["synthwave"] },
		sunset: { sky: 300, glow: 50, lighting: "dusk" },
		sunrise: { sky: 270, glow: 65, lighting: "dawn" },
		dusk: { sky: 285, glow: 40, lighting: "dusk" },
		twilight: { sky: 285, glow: 330, lighting: "dusk" },
		evening: { lighting: "dusk" },
		dawn: { sky: 265, glow: 30, lighting: "dawn" },
		morning: { lighting: "dawn" },
		noon: { lighting: "day" },
		daylight: { lighting: "day" },
		sunny: { glow: 95, lighting: "day" },
		summer: { glow: 90, land: 135, lighting: "day" },
		night: { sky: 268, lighting: "night" },
		midnight: { sky: 270, lighting: "night", lightness: -0.03 },
		moon: { sky: 260, lighting: "night" },
		moonlight: { sky: 255, lighting: "night" },
		stars: { lighting: "night" },
		starry: { lighting: "night" },
		aurora: { sky: 250, glow: 160, lighting: "night" },
		forest: { land: 150, glow: 90, scenes: ["forest"] },
		woods: { land: 150, scenes: ["forest"] },
		tree: { land: 145, scenes: ["forest"] },
		jungle: { land: 145, glow: 110, chroma: 1.1, scenes: ["forest"] },
		pine: { land: 160, scenes: ["forest"] },
		autumn: { land: 45, glow: 65, scenes: ["forest"] },
		fall: { land: 45, glow: 65 },
		spring: { land: 135, glow: 350 },
		cherry: { glow: 355, land: 350 },
		sakura: { glow: 355, land: 350, sky: 250 },
		mountain: { scenes: ["mountains", "lake"] },
		alps: { scenes: ["mountains"] },
		peak: { scenes: ["mountains"] },
		valley: { scenes: ["mountains", "forest"] },
		landscape: { scenes: ["mountains", "lake"] },
		hill: { scenes: ["forest"] },
		lake: { land: 220, scenes: ["lake"] },
		river: { land: 210, scenes: ["lake"] },
		reflection: { scenes: ["lake"] },
		pond: { land: 200, scenes: ["lake"] },
		desert: { sky: 245, glow: 70, land: 65, scenes: ["dunes"] },
		dune: { sky: 245, glow: 70, land: 65, scenes: ["dunes"] },
		sand: { land: 70, scenes: ["dunes"] },
		sahara: { land: 60, glow: 70, scenes: ["dunes"] },
		ocean: { land: 230, sky: 240, scenes: ["ocean"] },
		sea: { land: 225, scenes: ["ocean"] },
		wave: { land: 220, scenes: ["ocean"] },
		beach: { land: 210, glow: 80, scenes: ["ocean"] },
		island: { land: 200, scenes: ["ocean"] },
		boat: { scenes: ["ocean"] },
		ship: { scenes: ["ocean"] },
		sail: { scenes: ["ocean"] },
		tropical: { land: 195, glow: 90, chroma: 1.1, scenes: ["ocean"] },
		city: { scenes: ["city"] },
		skyline: { scenes: ["city"] },
		street: { scenes: ["city"] },
		urban: { scenes: ["city"] },
		tokyo: { glow: 350, scenes: ["city"] },
		building: { scenes: ["city"] },
		skyscraper: { scenes: ["city"] },
		space: { sky: 275, glow: 320, scenes: ["space"] },
		galaxy: { sky: 285, glow: 330, chroma: 1.15, scenes: ["space"] },
		planet: { sky: 265, scenes: ["space"] },
		nebula: { sky: 290, glow: 340, chroma: 1.2, scenes: ["space"] },
		cosmic: { sky: 285, scenes: ["space"] },
		astronaut: { scenes: ["space"] },
		universe: { scenes: ["space"] },
		scifi: { sky: 240, glow: 200, scenes: ["space", "city"] },
		abstract: { scenes: ["ribbons"] },
		fluid: { scenes: ["ribbons"] },
		gradient: { scenes: ["ribbons"] },
		wallpaper: { scenes: ["ribbons"] },
		silk: { scenes: ["ribbons"] },
		minimal: { scenes: ["ribbons"], chroma: 0.85 },
		snow: { land: 250, chroma: 0.45, lightness: 0.08, scenes: ["mountains"] },
		snowy: { land: 250, chroma: 0.45, lightness: 0.08, scenes: ["mountains"] },
		winter: { land: 245, sky: 250, chroma: 0.5, lightness: 0.06 },
		ice: { land: 220, chroma: 0.6, lightness: 0.06 },
		frozen: { land: 225, chroma: 0.55, lightness: 0.06 },
		fire: { sky: 20, glow: 60, land: 25, chroma: 1.2 },
		lava: { sky: 20, glow: 55, land: 30, chroma: 1.2, lightness: -0.04 },
		volcano: { glow: 45, land: 25, scenes: ["mountains"] },
		fantasy: { sky: 290, glow: 340 },
		dream: { sky: 300, glow: 350, lightness: 0.04, chroma: 0.8 },
		dreamy: { sky: 300, glow: 350, lightness: 0.04, chroma: 0.8 },
		mystic: { sky: 285, glow: 200 },
		cinematic: { sky: 225, glow: 60 },
		moody: { lightness: -0.05, chroma: 0.75 },
	} satisfies Record<string, ThemeHint>),
);

// Sky and glow pairs that read well together, for prompts that name no colour.
const CURATED_PAIRS: readonly (readonly [number, number])[] = [
	[262, 55],
	[300, 35],
	[250, 85],
	[205, 145],
	[330, 65],
	[285, 350],
	[235, 195],
	[275, 20],
	[185, 95],
	[345, 80],
];

/**
 * Reads colours, scenes and time of day from the words of a prompt. Without a seed everything that
 * is not named is chosen from the prompt's hash (as before seeds existed, so old generations render
 * the same); with one, from the prompt and the seed together, so another seed picks another palette.
 */
export function readPromptTheme(prompt: string, seed: number | null = null): PromptTheme {
	return readWordsTheme(readWords(prompt), chooseThemeSeed(prompt, seed));
}

/** The number everything unnamed is drawn from: the prompt's hash, stirred by the seed if any. */
function chooseThemeSeed(prompt: string, seed: number | null): number {
	if (seed === null) return hashString(prompt);
	// Hashing the seed first spreads neighbouring seeds (1, 2, 3) over unrelated values.
	return hashString(prompt, hashString(`seed:${seed}`));
}

/** The lower-case words of a text, as the engine reads prompts. */
export function readWords(text: string): string[] {
	return text.toLowerCase().match(/[a-z]+/g) ?? [];
}

function readWordsTheme(words: readonly string[], seed: number): PromptTheme {
	const generic: number[] = [];
	const scenes: SceneKind[] = [];
	let sky: number | undefined;
	let glow: number | undefined;
	let land: number | undefined;
	let chroma = 1;
	let lightness = 0;
	let lighting: Lighting | undefined;

	for (const word of words) {
		const hint = findHint(word);
		if (!hint) continue;
		if (hint.hue !== undefined) generic.push(hint.hue);
		sky ??= hint.sky;
		glow ??= hint.glow;
		land ??= hint.land;
		chroma *= hint.chroma ?? 1;
		lightness += hint.lightness ?? 0;
		lighting ??= hint.lighting;
		for (const scene of hint.scenes ?? []) {
			if (!scenes.includes(scene)) scenes.push(scene);
		}
	}

	// Plain colour words fill the roles nothing more specific has claimed, most visible first.
	for (const hue of generic) {
		if (sky === undefined) sky = hue;
		else if (glow === undefined) glow = hue;
		else if (land === undefined) land = hue;
	}

	const pair = CURATED_PAIRS[seed % CURATED_PAIRS.length] ?? [262, 55];
	const side = (seed >>> 8) % 2 === 0 ? 1 : -1;
	const baseSky = sky ?? (glow === undefined ? pair[0] : glow + side * 45);
	const baseGlow =
		glow ?? (sky === undefined ? pair[1] : baseSky + side * (30 + ((seed >>> 9) % 30)));
	return {
		seed,
		skyHue: baseSky,
		glowHue: baseGlow,
		landHue: land ?? baseSky + side * 12,
		chroma: Math.min(1.5, Math.max(0.15, chroma)),
		lightness: Math.min(0.12, Math.max(-0.12, lightness)),
		scenes,
		lighting,
	};
}

export function findHint(word: string): ThemeHint | undefined {
	return findWord(HINTS, word);
}

/** The entry for a word or its plural ("mountains", "waves", "trees") without a stemmer. */
export function findWord<T>(entries: ReadonlyMap<string, T>, word: string): T | undefined {
	const exact = entries.get(word);
	if (exact) return exact;
	if (word.endsWith("es")) {
		const withoutEs = entries.get(word.slice(0, -2));
		if (withoutEs) return withoutEs;
	}
	if (word.endsWith("s")) return entries.get(word.slice(0, -1));
	return undefined;
}
