// How the progress panel and the preview name what a generation is made with. Only lazy modules
// use it, so it lives apart from generation-state.ts, which the first page loads.
import { generatorRecipe } from "../../../../shared/i18n/messages";
import type { GenerationRecipe } from "./generation-state";

/** "Quick sketch · Seed 42", or the model's label alone where the model takes no seed. */
export function describeRecipe({ model, settings }: GenerationRecipe): string {
	// A seed is an identifier, written without a thousands separator.
	return settings.seed === null
		? model.label
		: generatorRecipe({ model: model.label, seed: String(settings.seed) });
}
