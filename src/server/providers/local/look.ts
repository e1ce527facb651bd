import { adjust, type Color, mixLab, mixSky, normalizeHue, oklch } from "./color";
import { avoidHues } from "./negative-prompt";
import type { Lighting, PromptTheme } from "./prompt-theme";
import type { Random } from "./random";

/** The colours of one image: the prompt's theme lit for one time of day. */
export type Look = {
	lighting: Lighting;
	skyTop: Color;
	skyMiddle: Color;
	horizon: Color;
	/** Sun or moon disc. */
	light: Color;
	/** The colour far-away things fade into. */
	haze: Color;
	/** The nearest, darkest layer of land. */
	landNear: Color;
	/** A saturated colour for highlights, windows, neon and rims. */
	accent: Color;
	/** Stars and moon instead of a sun. */
	isNight: boolean;
};

type Profile = {
	top: readonly [number, number];
	middle: readonly [number, number];
	horizon: readonly [number, number];
	light: readonly [number, number];
	land: readonly [number, number];
};

// Lightness and chroma per role, tuned by eye: a clear day is pale at the horizon, dusk is a deep
// sky over a hot horizon, night keeps just enough colour that the land reads against the sky.
const PROFILES: Record<Lighting, Profile> = {
	day: {
		top: [0.6, 0.12],
		middle: [0.76, 0.08],
		horizon: [0.9, 0.045],
		light: [0.99, 0.03],
		land: [0.38, 0.07],
	},
	dawn: {
		top: [0.62, 0.09],
		middle: [0.78, 0.08],
		horizon: [0.88, 0.1],
		light: [0.98, 0.05],
		land: [0.4, 0.06],
	},
	dusk: {
		top: [0.3, 0.11],
		middle: [0.54, 0.15],
		horizon: [0.8, 0.15],
		light: [0.96, 0.09],
		land: [0.2, 0.05],
	},
	night: {
		top: [0.15, 0.05],
		middle: [0.25, 0.065],
		horizon: [0.42, 0.075],
		light: [0.96, 0.02],
		land: [0.14, 0.035],
	},
};

const NIGHT_HUE = 265;

function mixHue(from: number, to: number, amount: number): number {
	let delta = normalizeHue(to) - normalizeHue(from);
	if (delta > 180) delta -= 360;
	if (delta < -180) delta += 360;
	return from + delta * amount;
}

/**
 * Lights the theme for `lighting`, nudging hues a little so sibling images differ in colour too.
 * Hues a negative prompt leaves out are avoided last, after the nudges and the night's pull.
 */
export function createLook(
	theme: PromptTheme,
	lighting: Lighting,
	random: Random,
	avoided: readonly number[] = [],
): Look {
	const profile = PROFILES[lighting];
	const shift = random.range(-14, 14);
	// Night pulls the sky and land towards moonlit blue: a warm palette at night turns to mud.
	const night = lighting === "night" ? 1 : 0;
	const skyHue = avoidHues(mixHue(theme.skyHue, NIGHT_HUE, 0.5 * night) + shift, avoided);
	const glowHue = avoidHues(theme.glowHue + shift * 0.6, avoided);
	const landHue = avoidHues(mixHue(theme.landHue, NIGHT_HUE, 0.3 * night) + shift * 0.8, avoided);
	const role = (values: readonly [number, number], hue: number, lightnessWeight = 1): Color =>
		oklch(values[0] + theme.lightness * lightnessWeight, values[1] * theme.chroma, hue);

	const skyTop = role(profile.top, skyHue);
	// A night horizon in the glow's own hue reads as a dim olive or brown band; half sky is calmer.
	const horizonHue = night
		? avoidHues(mixSky(oklch(0.5, 0.1, skyHue), oklch(0.5, 0.1, glowHue), 0.5).h, avoided)
		: glowHue;
	const horizon = role(profile.horizon, horizonHue, 0.5);
	const skyMiddle = mixSky(skyTop, horizon, 0.5);
	const middle = oklch(
		profile.middle[0] + theme.lightness,
		profile.middle[1] * theme.chroma,
		avoidHues(skyMiddle.h, avoided),
	);
	const light = role(profile.light, glowHue, 0);
	const landNear = role(profile.land, landHue);
	const haze = mixLab(horizon, middle, 0.35);
	const accent = oklch(
		lighting === "day" ? 0.72 : 0.8,
		Math.min(0.3, 0.19 * Math.max(0.6, theme.chroma)),
		glowHue,
	);
	return {
		lighting,
		skyTop,
		skyMiddle: middle,
		horizon,
		light,
		haze: adjust(haze, { l: -0.02 }),
		landNear,
		accent,
		isNight: lighting === "night",
	};
}
