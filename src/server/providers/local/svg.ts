import { type Color, toHex } from "./color";
import type { Look } from "./look";
import type { SceneElement } from "./negative-prompt";
import type { Random } from "./random";

/** An SVG being written: scenes push definitions and shapes, then it is serialised once. */
export type Canvas = {
	width: number;
	height: number;
	/** The short side: sizes scale with it so portrait and landscape images look alike. */
	unit: number;
	random: Random;
	look: Look;
	defs: string[];
	body: string[];
	nextId: number;
	/** What the negative prompt leaves out: scenes skip these. */
	omitted: ReadonlySet<SceneElement>;
	/** What was drawn, so a render can be described without looking at pixels. */
	drawn: Set<SceneElement>;
};

export type Point = { x: number; y: number };
type GradientStop = { offset: number; color: Color; opacity?: number };

export function createCanvas(
	width: number,
	height: number,
	random: Random,
	look: Look,
	omitted: ReadonlySet<SceneElement> = new Set(),
): Canvas {
	return {
		width,
		height,
		unit: Math.min(width, height),
		random,
		look,
		defs: [],
		body: [],
		nextId: 0,
		omitted,
		drawn: new Set(),
	};
}

/** Whether the scene may draw this element; if so, it is recorded as drawn. */
export function mayDraw(canvas: Canvas, element: SceneElement): boolean {
	if (canvas.omitted.has(element)) return false;
	canvas.drawn.add(element);
	return true;
}

export function toSvgDocument(canvas: Canvas): string {
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${canvas.width}" height="${canvas.height}" viewBox="0 0 ${canvas.width} ${canvas.height}"><defs>${canvas.defs.join("")}</defs>${canvas.body.join("")}</svg>`;
}

/** One decimal is below what anti-aliasing can show and keeps the SVG short. */
export function format(value: number): string {
	return (Math.round(value * 10) / 10).toString();
}

export function createId(canvas: Canvas, prefix: string): string {
	canvas.nextId += 1;
	return `${prefix}${canvas.nextId}`;
}

export function paint(color: Color, opacity = 1): string {
	const fill = `fill="${toHex(color)}"`;
	return opacity >= 1 ? fill : `${fill} fill-opacity="${format3(opacity)}"`;
}

export function stroke(color: Color, width: number, opacity = 1): string {
	const base = `fill="none" stroke="${toHex(color)}" stroke-width="${format(width)}" stroke-linecap="round"`;
	return opacity >= 1 ? base : `${base} stroke-opacity="${format3(opacity)}"`;
}

/** Adds a gradient in user space (pixels) from `from` to `to`; returns the `url(#...)` to fill with. */
export function addLinearGradient(
	canvas: Canvas,
	stops: readonly GradientStop[],
	from: Point,
	to: Point,
): string {
	const id = createId(canvas, "l");
	canvas.defs.push(
		`<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${format(from.x)}" y1="${format(from.y)}" x2="${format(to.x)}" y2="${format(to.y)}">${formatStops(stops)}</linearGradient>`,
	);
	return `url(#${id})`;
}

/** Adds a radial gradient in user space; `scaleY` squashes it into an ellipse around the centre. */
export function addRadialGradient(
	canvas: Canvas,
	stops: readonly GradientStop[],
	center: Point,
	radius: number,
	options: { focus?: Point; scaleY?: number } = {},
): string {
	const id = createId(canvas, "r");
	const focus = options.focus
		? ` fx="${format(options.focus.x)}" fy="${format(options.focus.y)}"`
		: "";
	const scale = options.scaleY ?? 1;
	const transform =
		scale === 1
			? ""
			: ` gradientTransform="matrix(1 0 0 ${format3(scale)} 0 ${format(center.y * (1 - scale))})"`;
	canvas.defs.push(
		`<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${format(center.x)}" cy="${format(center.y)}" r="${format(radius)}"${focus}${transform}>${formatStops(stops)}</radialGradient>`,
	);
	return `url(#${id})`;
}

/** Evenly spaced stops from a colour function, for gradients that should not blend in sRGB. */
export function sampleStops(
	count: number,
	colorAt: (offset: number) => Color,
	opacityAt?: (offset: number) => number,
): GradientStop[] {
	return Array.from({ length: count }, (_, index) => {
		const offset = index / (count - 1);
		return opacityAt
			? { offset, color: colorAt(offset), opacity: opacityAt(offset) }
			: { offset, color: colorAt(offset) };
	});
}

/** A closed shape under a line of points, down to `bottom`; smooth uses Catmull-Rom curves. */
export function areaPath(points: readonly Point[], bottom: number, isSmooth: boolean): string {
	const first = points[0];
	const last = points[points.length - 1];
	if (!first || !last) return "";
	return `M${format(first.x)} ${format(bottom)}L${format(first.x)} ${format(first.y)}${
		isSmooth ? smoothSegments(points) : straightSegments(points)
	}L${format(last.x)} ${format(bottom)}Z`;
}

/** An open line through the points, for strokes such as wave crests. */
export function linePath(points: readonly Point[], isSmooth: boolean): string {
	const first = points[0];
	if (!first) return "";
	return `M${format(first.x)} ${format(first.y)}${isSmooth ? smoothSegments(points) : straightSegments(points)}`;
}

function straightSegments(points: readonly Point[]): string {
	let path = "";
	for (let index = 1; index < points.length; index++) {
		const point = points[index];
		if (point) path += `L${format(point.x)} ${format(point.y)}`;
	}
	return path;
}

// Catmull-Rom through every point, written as cubic Béziers: smooth without overshooting much.
function smoothSegments(points: readonly Point[]): string {
	let path = "";
	for (let index = 0; index < points.length - 1; index++) {
		const current = points[index];
		const next = points[index + 1];
		if (!current || !next) continue;
		const previous = points[index - 1] ?? current;
		const afterNext = points[index + 2] ?? next;
		const c1x = current.x + (next.x - previous.x) / 6;
		const c1y = current.y + (next.y - previous.y) / 6;
		const c2x = next.x - (afterNext.x - current.x) / 6;
		const c2y = next.y - (afterNext.y - current.y) / 6;
		path += `C${format(c1x)} ${format(c1y)} ${format(c2x)} ${format(c2y)} ${format(next.x)} ${format(next.y)}`;
	}
	return path;
}

/** Midpoint displacement: a jagged profile of `2^depth + 1` values in about [0, 1]. */
export function fractalProfile(random: Random, depth: number, roughness: number): number[] {
	const size = 2 ** depth;
	const values = new Array<number>(size + 1).fill(0);
	values[0] = random.next();
	values[size] = random.next();
	let step = size;
	let spread = 1;
	while (step > 1) {
		const half = step / 2;
		for (let start = 0; start < size; start += step) {
			const left = values[start] ?? 0;
			const right = values[start + step] ?? 0;
			values[start + half] = (left + right) / 2 + (random.next() - 0.5) * spread;
		}
		spread *= roughness;
		step = half;
	}
	const min = Math.min(...values);
	const max = Math.max(...values);
	const range = max - min || 1;
	return values.map((value) => (value - min) / range);
}

/** A gentle rolling profile from a few sine waves: a function of x in [0, 1] with values in [0, 1]. */
export function createRollingProfile(random: Random, waves: number): (x: number) => number {
	const parts = Array.from({ length: waves }, (_, index) => ({
		frequency: (index + 1) * random.range(1.2, 2.6),
		phase: random.range(0, Math.PI * 2),
		weight: 1 / (index + 1) ** 1.3,
	}));
	const total = parts.reduce((sum, part) => sum + part.weight, 0);
	return (x) => {
		let value = 0;
		for (const part of parts) {
			value += part.weight * Math.sin(x * part.frequency * Math.PI + part.phase);
		}
		return 0.5 + (0.5 * value) / total;
	};
}

function formatStops(stops: readonly GradientStop[]): string {
	return stops
		.map((stop) => {
			const opacity =
				stop.opacity === undefined || stop.opacity >= 1
					? ""
					: ` stop-opacity="${format3(stop.opacity)}"`;
			return `<stop offset="${format3(stop.offset)}" stop-color="${toHex(stop.color)}"${opacity}/>`;
		})
		.join("");
}

function format3(value: number): string {
	return (Math.round(value * 1000) / 1000).toString();
}
