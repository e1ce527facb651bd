// What the prompt tools answer (styles, recall), as the browser parses it: zod/mini, loaded with
// the generator's settings after the first paint (docs/decisions/005-first-load-budget.md).
import { z } from "zod/mini";

/** Where a style comes from: the operator's STYLES_FILE, or the person's own. */
export const STYLE_SCOPES = ["operator", "personal"] as const;

/** A named template: `prompt` holds `{prompt}`, where the person's prompt goes. */
export const PromptStyleSchema = z.object({
	id: z.string(),
	name: z.string(),
	prompt: z.string(),
	negativePrompt: z.nullable(z.string()),
	scope: z.enum(STYLE_SCOPES),
});
export type PromptStyle = z.infer<typeof PromptStyleSchema>;

/** `GET /api/styles`: the operator's styles, then the person's own, each by name. */
export const PromptStylesSchema = z.object({ items: z.array(PromptStyleSchema) });
export type PromptStyles = z.infer<typeof PromptStylesSchema>;

/** What a deletion answers. */
export const PromptToolDoneSchema = z.object({ success: z.literal(true) });

/** The style a generation was made with, as its JSON names it (kept after the style is gone). */
export const GenerationStyleSchema = z.object({ id: z.string(), name: z.string() });
export type GenerationStyle = z.infer<typeof GenerationStyleSchema>;

/** The text in a style's prompt that the person's prompt replaces. */
export const PROMPT_PLACEHOLDER = "{prompt}";

/** A style's templates. */
export type StyleTemplate = { prompt: string; negativePrompt: string | null };

/** What a style adds, in a few words: its template with the placeholder shown as "…". */
export function previewStyle(style: StyleTemplate): string {
	return style.prompt.split(PROMPT_PLACEHOLDER).join("…");
}

/** How many distinct prompts the server keeps a person (recall, the Recent menu). */
export const MAX_RECENT_PROMPTS = 100;

/** `GET /api/prompts/recent`: the person's last distinct prompts, newest first. */
export const RecentPromptsSchema = z.object({
	items: z.array(z.object({ prompt: z.string(), lastUsedAt: z.string() })),
});
export type RecentPrompts = z.infer<typeof RecentPromptsSchema>;

/** `POST /api/prompts/recent/remove`: how many were forgotten. */
export const RemovedRecentPromptsSchema = z.object({ success: z.literal(true), removed: z.int() });

/** `POST /api/prompts/enhance`: the rewrite proposed, which nothing stores until it is used. */
export const EnhancedPromptSchema = z.object({ prompt: z.string() });
export type EnhancedPrompt = z.infer<typeof EnhancedPromptSchema>;
