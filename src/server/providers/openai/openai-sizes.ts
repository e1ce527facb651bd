import type { AspectRatio } from "../../../shared/generations/aspect-ratios";
import type { PixelSize } from "../shared/pixel-sizes";
import type { OpenAiSizeMode } from "./openai-config";

/**
 * The size each ratio is generated at. `standard`: the three sizes every GPT image model takes
 * (the nearest one; the result is then cropped to the exact ratio). `exact`: gpt-image-2's free
 * sizes (sides divisible by 16, ratio between 1:3 and 3:1), so no crop is needed; 21:9 at
 * 2016x864 is within the documented limits but not verified, hence the switch.
 */
const SIZES: Record<"standard" | "exact", Record<AspectRatio, PixelSize>> = {
	standard: {
		"--ar 1:1": { width: 1024, height: 1024 },
		"--ar 3:2": { width: 1536, height: 1024 },
		"--ar 16:9": { width: 1536, height: 1024 },
		"--ar 21:9": { width: 1536, height: 1024 },
		"--ar 2:3": { width: 1024, height: 1536 },
		"--ar 9:16": { width: 1024, height: 1536 },
	},
	exact: {
		"--ar 1:1": { width: 1024, height: 1024 },
		"--ar 3:2": { width: 1536, height: 1024 },
		"--ar 16:9": { width: 1536, height: 864 },
		"--ar 21:9": { width: 2016, height: 864 },
		"--ar 2:3": { width: 1024, height: 1536 },
		"--ar 9:16": { width: 864, height: 1536 },
	},
};

/** `auto` takes the exact sizes for gpt-image-2 models and the standard sizes for the others. */
export function selectOpenAiSize(
	model: string,
	mode: OpenAiSizeMode,
	aspectRatio: AspectRatio,
): string {
	const table = mode === "auto" ? (model.startsWith("gpt-image-2") ? "exact" : "standard") : mode;
	const size = SIZES[table][aspectRatio];
	return `${size.width}x${size.height}`;
}
