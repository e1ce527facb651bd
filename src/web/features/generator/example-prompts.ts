/** The three example prompts of the empty state (SPEC.md section 3); a click puts one in the box. */
export const EXAMPLE_PROMPTS = [
	"An anime boy with blue hair --niji 6",
	"A woman soldier in a black suit, portrait photoshoot",
	"An hourglass on a study desk, steampunk, intricate details, 8k",
] as const;
