import { adjust, type Color, mixLab, mixLch, mixSky, oklch } from "./color";
import {
	addLinearGradient,
	addRadialGradient,
	areaPath,
	type Canvas,
	createRollingProfile,
	format,
	fractalProfile,
	type Point,
	paint,
	sampleStops,
	stroke,
} from "./svg";

/** The sky from the top edge to `horizonY`, continuing in the horizon colour below it. */
export function drawSky(canvas: Canvas, horizonY: number): void {
	const { look } = canvas;
	const fill = addLinearGradient(
		canvas,
		sampleStops(7, (offset) =>
			offset < 0.55
				? mixSky(look.skyTop, look.skyMiddle, offset / 0.55)
				: mixSky(look.skyMiddle, look.horizon, ((offset - 0.55) / 0.45) ** 1.2),
		),
		{ x: 0, y: 0 },
		{ x: 0, y: horizonY },
	);
	canvas.body.push(`<rect width="${canvas.width}" height="${canvas.height}" fill="${fill}"/>`);
}

/** A wide, flat glow along the horizon: it is what makes a dusk or dawn sky read as one. */
export function drawHorizonGlow(
	canvas: Canvas,
	x: number,
	horizonY: number,
	strength: number,
): void {
	const { look, width, unit } = canvas;
	const radius = Math.max(width, unit) * 0.75;
	const fill = addRadialGradient(
		canvas,
		[
			{ offset: 0, color: look.light, opacity: 0.55 * strength },
			{ offset: 0.35, color: look.horizon, opacity: 0.3 * strength },
			{ offset: 1, color: look.horizon, opacity: 0 },
		],
		{ x, y: horizonY },
		radius,
		{ scaleY: 0.32 },
	);
	canvas.body.push(
		`<rect y="${format(horizonY - radius * 0.32)}" width="${width}" height="${format(radius * 0.64)}" fill="${fill}"/>`,
	);
}

/** The sun (or the moon at night) with a soft halo drawn as gradients, not blur filters. */
export function drawLight(canvas: Canvas, center: Point, radius: number): void {
	const { look, unit } = canvas;
	const haloRadius = look.isNight ? radius * 5 : unit * (look.lighting === "day" ? 0.45 : 0.6);
	const halo = addRadialGradient(
		canvas,
		[
			{ offset: 0, color: look.light, opacity: look.isNight ? 0.35 : 0.85 },
			{
				offset: 0.12,
				color: mixLch(look.light, look.horizon, 0.4),
				opacity: look.isNight ? 0.12 : 0.5,
			},
			{ offset: 0.45, color: look.horizon, opacity: look.isNight ? 0.04 : 0.18 },
			{ offset: 1, color: look.horizon, opacity: 0 },
		],
		center,
		haloRadius,
	);
	canvas.body.push(
		`<circle cx="${format(center.x)}" cy="${format(center.y)}" r="${format(haloRadius)}" fill="${halo}"/>`,
	);
	if (look.isNight) {
		drawMoon(canvas, center, radius);
		return;
	}
	const disc = addRadialGradient(
		canvas,
		[
			{ offset: 0, color: look.light },
			{ offset: 0.85, color: look.light },
			{ offset: 1, color: mixLch(look.light, look.horizon, 0.35) },
		],
		center,
		radius,
	);
	canvas.body.push(
		`<circle cx="${format(center.x)}" cy="${format(center.y)}" r="${format(radius)}" fill="${disc}"/>`,
	);
}

function drawMoon(canvas: Canvas, center: Point, radius: number): void {
	const { look, random } = canvas;
	const face = addRadialGradient(
		canvas,
		[
			{ offset: 0, color: adjust(look.light, { l: 0.02 }) },
			{ offset: 1, color: mixLch(look.light, look.skyMiddle, 0.25) },
		],
		{ x: center.x - radius * 0.3, y: center.y - radius * 0.3 },
		radius * 1.4,
	);
	const parts = [
		`<circle cx="${format(center.x)}" cy="${format(center.y)}" r="${format(radius)}" fill="${face}"/>`,
	];
	// A few faint "seas" make it a moon rather than a white dot.
	for (let index = 0; index < 4; index++) {
		const angle = random.range(0, Math.PI * 2);
		const distance = random.range(0.2, 0.6) * radius;
		parts.push(
			`<circle cx="${format(center.x + Math.cos(angle) * distance)}" cy="${format(center.y + Math.sin(angle) * distance)}" r="${format(random.range(0.1, 0.28) * radius)}" ${paint(look.skyMiddle, 0.06)}/>`,
		);
	}
	canvas.body.push(...parts);
}

/** Stars thinning towards `maxY`; a few bright ones get a small halo. */
export function drawStars(canvas: Canvas, maxY: number, density: number): void {
	const { random, width, look } = canvas;
	const count = Math.round(((width * maxY) / 5000) * density);
	const starColor = oklch(0.97, 0.03, look.skyTop.h);
	const dots: string[] = [];
	for (let index = 0; index < count; index++) {
		const x = random.range(0, width);
		const y = maxY * random.next() ** 1.5;
		const radius = random.next() ** 3 * 1.5 + 0.45;
		const opacity = (0.35 + random.next() * 0.65) * (1 - (y / maxY) * 0.7);
		dots.push(
			`<circle cx="${format(x)}" cy="${format(y)}" r="${format(radius)}" ${paint(starColor, opacity)}/>`,
		);
	}
	const glow = addRadialGradient(
		canvas,
		[
			{ offset: 0, color: starColor, opacity: 0.8 },
			{ offset: 0.2, color: starColor, opacity: 0.25 },
			{ offset: 1, color: starColor, opacity: 0 },
		],
		{ x: 0, y: 0 },
		1,
	);
	for (let index = 0; index < Math.max(3, count / 60); index++) {
		const x = random.range(0, width);
		const y = maxY * random.next() ** 1.3 * 0.8;
		const size = random.range(5, 11) * (canvas.unit / 1024);
		dots.push(
			`<circle r="1" transform="translate(${format(x)} ${format(y)}) scale(${format(size)})" fill="${glow}"/>`,
		);
	}
	canvas.body.push(...dots);
}

/** Haze rising from a valley: transparent at `top`, `opacity` from `bottom` down. */
export function drawMist(
	canvas: Canvas,
	top: number,
	bottom: number,
	opacity: number,
	color: Color = canvas.look.haze,
): void {
	if (bottom <= top) return;
	const fill = addLinearGradient(
		canvas,
		[
			{ offset: 0, color, opacity: 0 },
			{ offset: 1, color, opacity },
		],
		{ x: 0, y: top },
		{ x: 0, y: bottom },
	);
	canvas.body.push(
		`<rect y="${format(top)}" width="${canvas.width}" height="${format(canvas.height - top)}" fill="${fill}"/>`,
	);
}

type RangeOptions = {
	/** Number of ridges, far to near. */
	layers: number;
	/** Where the farthest ridge's base sits, and the nearest one's. */
	farBase: number;
	nearBase: number;
	/** Ridge heights as a share of the short side, farthest first. */
	farHeight: number;
	nearHeight: number;
	/** Where the shapes end (the bottom edge, or a waterline). */
	bottom: number;
	/** 0 smooth hills .. 1 jagged peaks, for the farthest ridge (nearer ones get smoother). */
	jaggedness: number;
	far: Color;
	near: Color;
	mist: number;
	/** Called after each ridge with its line, so scenes can plant trees on it. */
	onRidge?: (ridge: Ridge) => void;
};

type Ridge = { index: number; depth: number; color: Color; heightAt: (x: number) => number };

/** Ridges from far to near, fading into the haze with distance (aerial perspective). */
export function drawRanges(canvas: Canvas, options: RangeOptions): void {
	const { random, width, unit } = canvas;
	for (let index = 0; index < options.layers; index++) {
		const depth = options.layers === 1 ? 1 : index / (options.layers - 1);
		const base = options.farBase + (options.nearBase - options.farBase) * depth ** 0.85;
		const height =
			unit *
			(options.farHeight + (options.nearHeight - options.farHeight) * depth) *
			random.range(0.75, 1.2);
		const jagged = options.jaggedness * (1 - depth * 0.8);
		const heightAt = createRidgeProfile(canvas, jagged);
		const lineY = (x: number): number => base - height * heightAt(x / width);
		const color = mixLab(options.far, options.near, depth ** 0.9);
		const points = ridgePoints(width, lineY, jagged > 0.35 ? 64 : 18);
		const top = base - height;
		const fill = addLinearGradient(
			canvas,
			[
				{ offset: 0, color: adjust(color, { l: 0.025 }) },
				{ offset: 1, color: mixLab(color, canvas.look.haze, 0.25 * (1 - depth)) },
			],
			{ x: 0, y: top },
			{ x: 0, y: Math.min(options.bottom, base + unit * 0.1) },
		);
		canvas.body.push(
			`<path d="${areaPath(points, options.bottom + 1, jagged <= 0.35)}" fill="${fill}"/>`,
		);
		options.onRidge?.({ index, depth, color, heightAt: lineY });
		if (index < options.layers - 1 && options.mist > 0) {
			drawMist(canvas, base - height * 0.55, base + unit * 0.04, options.mist * (1 - depth * 0.5));
		}
	}
}

function createRidgeProfile(canvas: Canvas, jaggedness: number): (x: number) => number {
	const rolling = createRollingProfile(canvas.random, 4);
	if (jaggedness <= 0.05) return rolling;
	const fractal = fractalProfile(canvas.random, 6, 0.42 + jaggedness * 0.16);
	const last = fractal.length - 1;
	return (x) => {
		const position = Math.min(last, Math.max(0, x * last));
		const lower = Math.floor(position);
		const a = fractal[lower] ?? 0;
		const b = fractal[Math.min(last, lower + 1)] ?? a;
		const peaks = a + (b - a) * (position - lower);
		return rolling(x) * (1 - jaggedness) + peaks * jaggedness;
	};
}

export function ridgePoints(
	width: number,
	lineY: (x: number) => number,
	segments: number,
): Point[] {
	const points: Point[] = [];
	const start = -width * 0.02;
	const span = width * 1.04;
	for (let index = 0; index <= segments; index++) {
		const x = start + (span * index) / segments;
		points.push({ x, y: lineY(x) });
	}
	return points;
}

/** A conifer silhouette standing at (x, y): tiers of drooping branches on a short trunk. */
export function pineTreePath(
	x: number,
	y: number,
	height: number,
	width: number,
	random: () => number,
): string {
	const tiers = 4 + Math.floor(random() * 3);
	const top = y - height;
	const trunk = width * 0.07;
	const right: string[] = [];
	const left: string[] = [];
	for (let tier = 1; tier <= tiers; tier++) {
		const share = tier / tiers;
		const tierY = top + height * 0.88 * share;
		const reach = (width / 2) * share ** 0.9 * (0.85 + random() * 0.3);
		const tuck = reach * 0.42;
		const lift = height * 0.05;
		right.push(`L${format(x + reach)} ${format(tierY)}`);
		left.unshift(`L${format(x - reach)} ${format(tierY)}`);
		if (tier < tiers) {
			right.push(`L${format(x + tuck)} ${format(tierY - lift)}`);
			left.unshift(`L${format(x - tuck)} ${format(tierY - lift)}`);
		}
	}
	const baseY = top + height * 0.88;
	return `M${format(x)} ${format(top)}${right.join("")}L${format(x + trunk)} ${format(baseY)}L${format(x + trunk)} ${format(y)}L${format(x - trunk)} ${format(y)}L${format(x - trunk)} ${format(baseY)}${left.join("")}Z`;
}

/** A loose flock of birds, drawn as little arcs. */
export function drawBirds(
	canvas: Canvas,
	area: { x: number; y: number; spread: number },
	color: Color,
): void {
	const { random, unit } = canvas;
	const count = random.integer(3, 7);
	let path = "";
	for (let index = 0; index < count; index++) {
		const x = area.x + random.range(-1, 1) * area.spread;
		const y = area.y + random.range(-0.4, 0.4) * area.spread;
		const span = unit * random.range(0.008, 0.016);
		const dip = span * random.range(0.3, 0.55);
		path += `M${format(x - span)} ${format(y - dip)}Q${format(x - span / 2)} ${format(y - dip * 1.4)} ${format(x)} ${format(y)}Q${format(x + span / 2)} ${format(y - dip * 1.4)} ${format(x + span)} ${format(y - dip)}`;
	}
	canvas.body.push(`<path d="${path}" ${stroke(color, Math.max(1.2, unit * 0.0022), 0.85)}/>`);
}

/** Darkens the corners a little, as a lens would: it pulls the eye to the middle. */
export function drawVignette(canvas: Canvas, strength: number): void {
	const { width, height } = canvas;
	const black = oklch(0.05, 0.01, canvas.look.skyTop.h);
	const fill = addRadialGradient(
		canvas,
		[
			{ offset: 0.55, color: black, opacity: 0 },
			{ offset: 1, color: black, opacity: strength },
		],
		{ x: width / 2, y: height / 2 },
		Math.hypot(width, height) / 2,
	);
	canvas.body.push(`<rect width="${width}" height="${height}" fill="${fill}"/>`);
}
