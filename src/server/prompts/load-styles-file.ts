import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { MAX_PROMPT_LENGTH } from "../../shared/core/constants";
import { validateNegativePrompt, validatePrompt } from "../../shared/prompts/prompt";
import { MAX_STYLE_NAME_LENGTH, STYLE_ID_PATTERN } from "../../shared/prompts/prompt-styles";
import { PROMPT_PLACEHOLDER, type PromptStyle } from "../../shared/prompts/prompt-tool-responses";

/** The styles file cannot be used: every problem, each naming its entry and field. */
export class StylesFileError extends Error {
	readonly problems: readonly string[];
	constructor(problems: readonly string[]) {
		super(`STYLES_FILE has problems:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
		this.problems = problems;
	}
}

const EntrySchema = z.strictObject({
	id: z
		.string({ error: "is required" })
		.regex(STYLE_ID_PATTERN, "must be 1 to 64 letters, digits or -"),
	name: z
		.string({ error: "is required" })
		.trim()
		.min(1, "is required")
		.max(MAX_STYLE_NAME_LENGTH, `must be ${MAX_STYLE_NAME_LENGTH} characters or less`),
	prompt: z
		.string({ error: "is required" })
		.max(MAX_PROMPT_LENGTH, `must be ${MAX_PROMPT_LENGTH} characters or less`)
		.refine((prompt) => prompt.includes(PROMPT_PLACEHOLDER), `must contain ${PROMPT_PLACEHOLDER}`)
		.refine((prompt) => validatePrompt(prompt).ok, "contains invalid content"),
	negativePrompt: z
		.string({ error: "must be text" })
		.refine((text) => validateNegativePrompt(text).ok, "contains invalid content or is too long")
		.optional(),
});

/**
 * The operator's styles, offered to everyone: STYLES_FILE, a JSON array of
 * `{ id, name, prompt, negativePrompt? }`, checked at start as MODELS_FILE is. Without it, none.
 */
export function loadStylesFile(
	file: string | undefined,
	cwd: string = process.cwd(),
): readonly PromptStyle[] {
	if (!file) return [];
	const resolved = path.resolve(cwd, file);
	let json: unknown;
	try {
		json = JSON.parse(readFileSync(resolved, "utf8"));
	} catch (error) {
		throw new StylesFileError([`${resolved}: ${error instanceof Error ? error.message : error}`]);
	}
	if (!Array.isArray(json)) {
		throw new StylesFileError([`${resolved}: must be a JSON array of styles`]);
	}
	const problems: string[] = [];
	const styles: PromptStyle[] = [];
	const seen = new Set<string>();
	json.forEach((raw: unknown, index) => {
		const name = entryName(raw, index);
		const parsed = EntrySchema.safeParse(raw);
		if (!parsed.success) {
			for (const issue of parsed.error.issues) {
				const field = issue.path.join(".") || ("keys" in issue ? issue.keys.join(", ") : "entry");
				problems.push(`${name}: ${field}: ${issue.message}`);
			}
			return;
		}
		const entry = parsed.data;
		if (seen.has(entry.id)) {
			problems.push(`${name}: id: "${entry.id}" is used by an earlier entry`);
		}
		seen.add(entry.id);
		styles.push({
			id: entry.id,
			name: entry.name,
			prompt: entry.prompt.trim(),
			negativePrompt: entry.negativePrompt?.trim() || null,
			scope: "operator",
		});
	});
	if (problems.length > 0) throw new StylesFileError(problems);
	return styles;
}

/** "entry 2 (cinematic)": its place in the file, counting from 1, and its id when it has one. */
function entryName(raw: unknown, index: number): string {
	const id =
		typeof raw === "object" && raw !== null && "id" in raw && typeof raw.id === "string"
			? ` (${raw.id})`
			: "";
	return `entry ${index + 1}${id}`;
}
