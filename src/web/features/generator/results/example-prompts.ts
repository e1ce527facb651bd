/**
 * The three example prompts of the empty state (SPEC.md section 3); a click puts one in the box.
 * Prompts, not interface texts: they stay in English in every language, as image models read
 * English best (Enhance's "Translate to English" exists for the same reason).
 */
export const EXAMPLE_PROMPTS = [
	"An anime boy with blue hair --niji 6",
	"A woman soldier in a black suit, portrait photoshoot",
	"An hourglass on a study desk, steampunk, intricate details, 8k",
] as const;
