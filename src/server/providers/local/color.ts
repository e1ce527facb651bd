/**
 * Colours in OKLCH (lightness 0..1, chroma about 0..0.37, hue in degrees). OKLCH is used instead
 * of HSL because equal steps look equal: a palette built by rotating the hue keeps its brightness,
 * and blends between layers do not turn muddy.
 */
export type Color = { l: number; c: number; h: number };

export function oklch(l: number, c: number, h: number): Color {
	return { l: clamp(l, 0, 1), c: Math.max(0, c), h: normalizeHue(h) };
}

export function normalizeHue(hue: number): number {
	return ((hue % 360) + 360) % 360;
}

export function clamp(value: number, min: number, max: number): number {
	return Math.min(max, Math.max(min, value));
}

/** Blends along the shorter way round the hue wheel, so a blue-to-orange sky stays vivid. */
export function mixLch(from: Color, to: Color, amount: number): Color {
	let delta = to.h - from.h;
	if (delta > 180) delta -= 360;
	if (delta < -180) delta += 360;
	// A grey has no meaningful hue: take the other colour's so the blend does not swing through red.
	const hue = from.c < 0.01 ? to.h : to.c < 0.01 ? from.h : from.h + delta * clamp(amount, 0, 1);
	return oklch(from.l + (to.l - from.l) * amount, from.c + (to.c - from.c) * amount, hue);
}

/**
 * Blends for skies: along the hue wheel, but never through green unless an end is green. A blue
 * sky over a gold horizon then passes through violet and rose, as a sunset does, not through lime.
 */
export function mixSky(from: Color, to: Color, amount: number): Color {
	if (from.c < 0.01 || to.c < 0.01) return mixLch(from, to, amount);
	let delta = normalizeHue(to.h - from.h);
	if (delta > 180) delta -= 360;
	if (!isGreen(from.h) && !isGreen(to.h) && crossesGreen(from.h, delta)) {
		const longWay = delta > 0 ? delta - 360 : delta + 360;
		if (Math.abs(longWay) <= 240) delta = longWay;
	}
	const share = clamp(amount, 0, 1);
	return oklch(
		from.l + (to.l - from.l) * share,
		from.c + (to.c - from.c) * share,
		from.h + delta * share,
	);
}

function isGreen(hue: number): boolean {
	const normal = normalizeHue(hue);
	return normal >= 115 && normal <= 175;
}

function crossesGreen(start: number, delta: number): boolean {
	for (let step = 1; step < 20; step++) {
		if (isGreen(start + (delta * step) / 20)) return true;
	}
	return false;
}

/** Blends in OKLab (a straight line): right for haze and shadows, which desaturate on the way. */
export function mixLab(from: Color, to: Color, amount: number): Color {
	const a = toLab(from);
	const b = toLab(to);
	const l = a.l + (b.l - a.l) * amount;
	const labA = a.a + (b.a - a.a) * amount;
	const labB = a.b + (b.b - a.b) * amount;
	return oklch(l, Math.hypot(labA, labB), (Math.atan2(labB, labA) * 180) / Math.PI);
}

export function adjust(color: Color, change: { l?: number; c?: number; h?: number }): Color {
	return oklch(color.l + (change.l ?? 0), color.c * (change.c ?? 1), color.h + (change.h ?? 0));
}

/** `#rrggbb`; colours outside sRGB lose chroma until they fit, keeping their hue and lightness. */
export function toHex(color: Color): string {
	let chroma = color.c;
	let rgb = toLinearRgb(color.l, chroma, color.h);
	for (let step = 0; step < 24 && !isInGamut(rgb); step++) {
		chroma *= 0.88;
		rgb = toLinearRgb(color.l, chroma, color.h);
	}
	return `#${rgb.map((channel) => toHexByte(channel)).join("")}`;
}

function toLab(color: Color): { l: number; a: number; b: number } {
	const radians = (color.h * Math.PI) / 180;
	return { l: color.l, a: color.c * Math.cos(radians), b: color.c * Math.sin(radians) };
}

function toLinearRgb(l: number, c: number, h: number): [number, number, number] {
	const radians = (h * Math.PI) / 180;
	const a = c * Math.cos(radians);
	const b = c * Math.sin(radians);
	const lCone = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
	const mCone = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
	const sCone = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
	return [
		4.0767416621 * lCone - 3.3077115913 * mCone + 0.2309699292 * sCone,
		-1.2684380046 * lCone + 2.6097574011 * mCone - 0.3413193965 * sCone,
		-0.0041960863 * lCone - 0.7034186147 * mCone + 1.707614701 * sCone,
	];
}

function isInGamut(rgb: readonly number[]): boolean {
	return rgb.every((channel) => channel >= -0.001 && channel <= 1.001);
}

function toHexByte(linear: number): string {
	const value = clamp(linear, 0, 1);
	const encoded = value <= 0.0031308 ? 12.92 * value : 1.055 * value ** (1 / 2.4) - 0.055;
	return Math.round(encoded * 255)
		.toString(16)
		.padStart(2, "0");
}
