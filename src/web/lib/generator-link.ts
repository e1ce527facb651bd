// How another screen hands a prompt and a ratio to the generator: through its address, which the
// generator reads once (features do not import each other).
import { type AspectRatio, readRatioParam, toRatioParam } from "../../shared/aspect-ratios";
import { sanitizePrompt } from "../../shared/prompt";

type GeneratorPrefill = { prompt: string | null; aspectRatio: AspectRatio | null };

/** The generator's address with `prompt` and its ratio filled in, like `/?prompt=...&ratio=16:9`. */
export function buildGeneratorLink(request: { prompt: string; aspectRatio: AspectRatio }): string {
	const params = new URLSearchParams({
		prompt: request.prompt,
		ratio: toRatioParam(request.aspectRatio),
	});
	return `/?${params}`;
}

/** What an address built by buildGeneratorLink asks the generator to fill in; null where nothing. */
export function readGeneratorLink(search: string): GeneratorPrefill {
	const params = new URLSearchParams(search);
	const prompt = params.get("prompt");
	return {
		prompt: prompt ? sanitizePrompt(prompt) : null,
		aspectRatio: readRatioParam(params.get("ratio")),
	};
}
