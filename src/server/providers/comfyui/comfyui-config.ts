import type { PixelSizeSet } from "../shared/pixel-sizes";

// ComfyUI's settings and their defaults, shared by env.ts and the adapter without loading the adapter.

/** Where the shipped workflow (ComfyUI's stock graph) takes each input: `<node id>.<input name>`. */
export const COMFYUI_DEFAULT_INPUTS = {
	prompt: "6.text",
	width: "5.width",
	height: "5.height",
	batch: "5.batch_size",
	seed: "3.seed",
} as const;

/**
 * Where the shipped workflow takes a negative prompt: its negative CLIPTextEncode. Only a default
 * for that workflow; your own workflow has no negative prompt input until one is named.
 */
export const COMFYUI_SHIPPED_NEGATIVE_PROMPT_INPUT = "7.text";

/** The sizes that fit the stock graph's Stable Diffusion 1.5 checkpoint. */
export const COMFYUI_DEFAULT_SIZES: PixelSizeSet = "sd15";

/**
 * Where the shipped image-to-image workflow takes each input. It is the stock graph with the
 * empty latent replaced by LoadImage → ImageScale (to the ratio's size) → VAEEncode →
 * RepeatLatentBatch, and the sampler's denoise set from the reference strength.
 */
export const COMFYUI_SHIPPED_IMAGE_INPUTS = {
	image: "10.image",
	denoise: "3.denoise",
	prompt: "6.text",
	negativePrompt: "7.text",
	seed: "3.seed",
	width: "11.width",
	height: "11.height",
	batch: "13.amount",
} as const;

/** Where the shipped upscale workflow (LoadImage → ImageScaleBy → SaveImage) takes its inputs. */
export const COMFYUI_SHIPPED_UPSCALE_INPUTS = { image: "1.image", factor: "2.scale_by" } as const;

/** The factors an upscale workflow offers unless its configuration names others. */
export const COMFYUI_DEFAULT_UPSCALE_FACTORS = [2, 4] as const;

/**
 * Where the shipped inpaint workflow (Edit region, Expand) takes each input. It is the stock graph
 * with the empty latent replaced by LoadImage → VAEEncodeForInpaint (the image, and LoadImage's
 * MASK output, read from the image's alpha) → RepeatLatentBatch, the sampler's denoise at 1.
 */
export const COMFYUI_SHIPPED_INPAINT_INPUTS = {
	image: "10.image",
	prompt: "6.text",
	negativePrompt: "7.text",
	seed: "3.seed",
	batch: "13.amount",
} as const;
