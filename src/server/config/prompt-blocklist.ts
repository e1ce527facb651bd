import { readFile } from "node:fs/promises";

/** What a prompt may not hold (PROMPT_BLOCKLIST_FILE): checked when generating and when sharing. */
export type PromptBlocklist = {
	/** Whether the prompt (or a negative prompt) holds a listed word or matches a pattern. */
	isBlocked(text: string): boolean;
};

/** A blocklist that blocks nothing: no PROMPT_BLOCKLIST_FILE. */
export const EMPTY_PROMPT_BLOCKLIST: PromptBlocklist = { isBlocked: () => false };

export class PromptBlocklistError extends Error {
	constructor(readonly problems: readonly string[]) {
		super(problems.join("\n"));
		this.name = "PromptBlocklistError";
	}
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Reads the blocklist's text: one entry a line, a word (matched whole, in any case, so "ass" does
 * not block "class") or a `/pattern/` (a JavaScript regular expression, case-insensitive). Blank
 * lines and lines starting with `#` are skipped. Every bad pattern is named with its line.
 */
export function parsePromptBlocklist(text: string): PromptBlocklist {
	const expressions: RegExp[] = [];
	const problems: string[] = [];
	for (const [index, raw] of text.split(/\r?\n/).entries()) {
		const line = raw.trim();
		if (line === "" || line.startsWith("#")) continue;
		const pattern = /^\/(.+)\/$/.exec(line)?.[1];
		try {
			expressions.push(
				pattern === undefined
					? new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(line)}(?![\\p{L}\\p{N}])`, "iu")
					: new RegExp(pattern, "iu"),
			);
		} catch (error) {
			problems.push(`line ${index + 1}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
	if (problems.length > 0) throw new PromptBlocklistError(problems);
	if (expressions.length === 0) return EMPTY_PROMPT_BLOCKLIST;
	return {
		isBlocked: (value) => {
			const normalized = value.normalize("NFKC");
			return expressions.some((expression) => expression.test(normalized));
		},
	};
}

/** PROMPT_BLOCKLIST_FILE, read once at start; a file that cannot be read or parsed stops the server. */
export async function loadPromptBlocklist(file: string | undefined): Promise<PromptBlocklist> {
	if (!file) return EMPTY_PROMPT_BLOCKLIST;
	let text: string;
	try {
		text = await readFile(file, "utf8");
	} catch (error) {
		throw new PromptBlocklistError([
			`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
		]);
	}
	return parsePromptBlocklist(text);
}
