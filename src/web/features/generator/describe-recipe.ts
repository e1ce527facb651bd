// How the progress panel and the preview name what a generation is made with. Only lazy modules
// use it, so it lives apart from generation-state.ts, which the first page loads.
import type { GenerationRecipe } from "./generation-state";

/** "Quick sketch · Seed 42", or the model's label alone where the model takes no seed. */
export function describeRecipe({ model, settings }: GenerationRecipe): string {
	return settings.seed === null ? model.label : `${model.label} · Seed ${settings.seed}`;
}
