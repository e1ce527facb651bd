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
