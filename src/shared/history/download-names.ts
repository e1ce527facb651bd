// File names of downloads, made from the prompt: `lighthouse-at-dusk-2.png`, `lighthouse-at-dusk.zip`.
import { stripAspectRatioFlag } from "../prompts/prompt";

const SLUG_MAX = 60;

/**
 * The prompt as a file-name stem: lowercase ASCII words joined by `-` (accents dropped, a typed
 * `--ar` flag left out), at most 60 characters cut at a word, `image` when nothing is left.
 */
export function slugifyPrompt(prompt: string): string {
	const words =
		stripAspectRatioFlag(prompt)
			.normalize("NFKD")
			.replace(/[\u0300-\u036f]/g, "")
			.toLowerCase()
			.match(/[a-z0-9]+/g) ?? [];
	let slug = "";
	for (const word of words) {
		const next = slug ? `${slug}-${word}` : word;
		if (next.length > SLUG_MAX) {
			if (!slug) slug = word.slice(0, SLUG_MAX);
			break;
		}
		slug = next;
	}
	return slug || "image";
}

/** One image of a generation as downloaded: `<slug>-<position from 1>.<extension>`. */
export function imageDownloadName(prompt: string, index: number, extension: string): string {
	return `${slugifyPrompt(prompt)}-${index + 1}.${extension}`;
}
