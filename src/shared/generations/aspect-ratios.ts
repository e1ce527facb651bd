// No schema library here: the first page imports this module, and its schema lives in
// generation-responses.ts (docs/decisions/005-first-load-budget.md).

/** The six aspect-ratio options of SPEC.md section 3, in menu order. */
export const ASPECT_RATIOS = [
	{ label: "Square", value: "--ar 1:1", width: 1, height: 1 },
	{ label: "Landscape (classic photo)", value: "--ar 3:2", width: 3, height: 2 },
	{ label: "Landscape (widescreen)", value: "--ar 16:9", width: 16, height: 9 },
	{ label: "Landscape (ultrawide)", value: "--ar 21:9", width: 21, height: 9 },
	{ label: "Portrait (classic photo)", value: "--ar 2:3", width: 2, height: 3 },
	{ label: "Portrait (vertical)", value: "--ar 9:16", width: 9, height: 16 },
] as const;

export type AspectRatioOption = (typeof ASPECT_RATIOS)[number];

export type AspectRatio = AspectRatioOption["value"];

export const ASPECT_RATIO_VALUES = ASPECT_RATIOS.map((option) => option.value) as [
	AspectRatio,
	...AspectRatio[],
];

export const DEFAULT_ASPECT_RATIO: AspectRatio = "--ar 1:1";

export function findAspectRatio(value: AspectRatio): AspectRatioOption {
	const option = ASPECT_RATIOS.find((candidate) => candidate.value === value);
	if (!option) throw new Error(`Unknown aspect ratio ${value}`);
	return option;
}

/**
 * The ratio without its flag, as web addresses, the history's labels and the image services
 * write it: "--ar 16:9" gives "16:9".
 */
export function toRatioParam(value: AspectRatio): string {
	return value.slice("--ar ".length);
}

/** The aspect ratio a web address names ("16:9", or the flag itself), or null for anything else. */
export function readRatioParam(param: string | null): AspectRatio | null {
	if (!param) return null;
	const flag = param.startsWith("--ar ") ? param : `--ar ${param.trim()}`;
	return ASPECT_RATIO_VALUES.find((value) => value === flag) ?? null;
}

/** Pixel size of an image in this ratio whose long side is `longSide` pixels. */
export function sizeForAspectRatio(
	value: AspectRatio,
	longSide: number,
): { width: number; height: number } {
	const { width, height } = findAspectRatio(value);
	if (width >= height) {
		return { width: longSide, height: Math.round((longSide * height) / width) };
	}
	return { width: Math.round((longSide * width) / height), height: longSide };
}

/**
 * The ratio closest to an image's own (compared as logarithms, so 2:1 is as far from 1:1 as 1:2):
 * what an edit of an uploaded image keeps when the request names none.
 */
export function nearestAspectRatio(width: number, height: number): AspectRatio {
	const target = Math.log(width / height);
	let nearest: AspectRatioOption = ASPECT_RATIOS[0];
	for (const option of ASPECT_RATIOS) {
		const distance = Math.abs(Math.log(option.width / option.height) - target);
		if (distance < Math.abs(Math.log(nearest.width / nearest.height) - target)) nearest = option;
	}
	return nearest.value;
}
