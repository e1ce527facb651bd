import type { AspectRatio } from "../../../shared/generations/aspect-ratios";

export type PixelSize = { width: number; height: number };

export const PIXEL_SIZE_SETS = ["sd15", "1mp", "1mp-exact"] as const;
export type PixelSizeSet = (typeof PIXEL_SIZE_SETS)[number];

/**
 * Pixel sizes for services that take a free width and height (ComfyUI, fal's custom size):
 * `1mp` is about one megapixel in multiples of 64 (the buckets SDXL and Flux were trained on),
 * `1mp-exact` about one megapixel in multiples of 16 and as close to the ratio as that allows,
 * `sd15` about a quarter megapixel in multiples of 8, for Stable Diffusion 1.5 checkpoints.
 */
export const PIXEL_SIZES = {
	"1mp": {
		"--ar 1:1": { width: 1024, height: 1024 },
		"--ar 3:2": { width: 1216, height: 832 },
		"--ar 2:3": { width: 832, height: 1216 },
		"--ar 16:9": { width: 1344, height: 768 },
		"--ar 9:16": { width: 768, height: 1344 },
		"--ar 21:9": { width: 1536, height: 640 },
	},
	"1mp-exact": {
		"--ar 1:1": { width: 1024, height: 1024 },
		"--ar 3:2": { width: 1248, height: 832 },
		"--ar 2:3": { width: 832, height: 1248 },
		"--ar 16:9": { width: 1360, height: 768 },
		"--ar 9:16": { width: 768, height: 1360 },
		"--ar 21:9": { width: 1568, height: 672 },
	},
	sd15: {
		"--ar 1:1": { width: 512, height: 512 },
		"--ar 3:2": { width: 768, height: 512 },
		"--ar 2:3": { width: 512, height: 768 },
		"--ar 16:9": { width: 896, height: 504 },
		"--ar 9:16": { width: 504, height: 896 },
		"--ar 21:9": { width: 1176, height: 504 },
	},
} as const satisfies Record<PixelSizeSet, Record<AspectRatio, PixelSize>>;
