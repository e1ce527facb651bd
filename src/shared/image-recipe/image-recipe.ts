// The recipe of a generated image (its prompt and settings) as text that travels inside the image
// file: the `parameters` text that A1111 and ComfyUI users know, and an XMP packet (its form is in
// image-recipe-xmp.ts; both are checked by checkFields here). Pure code with no schema library: the
// browser loads it on demand, when a person drops an image (src/web/lib/generations/read-image-recipe.ts). The
// containers that carry these texts are in image-recipe-files.ts.
import {
	ASPECT_RATIOS,
	type AspectRatio,
	readRatioParam,
	toRatioParam,
} from "../generations/aspect-ratios";
import {
	IMAGE_COUNTS,
	MAX_SEED,
	QUALITIES,
	type Quality,
} from "../generations/generation-settings";

/**
 * What an image file says about how it was made. Atelier writes every field it knows; a file from
 * another tool may lack any but the prompt, and what it lacks is null.
 */
export type ImageRecipe = {
	prompt: string;
	/** One of the six offered ratios, as the prompt flag writes it ("--ar 16:9"). */
	aspectRatio: AspectRatio | null;
	/** The model's id in Atelier's catalogue and its label when the image was made. */
	model: { id: string; label: string } | null;
	count: number | null;
	/** The seed used; null when the image names none. */
	seed: number | null;
	negativePrompt: string | null;
	quality: Quality | null;
	width: number | null;
	height: number | null;
	/** The style it was made with (its id and name then); the prompt is the one typed. */
	style: { id: string; name: string } | null;
	/**
	 * For an Edit region or Expand result: the action and the generation that made it, whose
	 * recorded mask and frame reopen the editor (Use settings) when the file is dropped again.
	 * Absent for any other image.
	 */
	regionEdit?: RecipeRegionEdit;
	/** Made from an enhanced prompt: the prompt as the person had written it (`prompt` is the one used). */
	originalPrompt?: string | null;
};

/** The region edit an image is the result of: its action and its generation's id. */
export type RecipeRegionEdit = { action: "edit-region" | "expand"; generationId: string };

const REGION_ACTIONS = ["edit-region", "expand"] as const;
/** A generation id as Atelier writes them (a UUID), or any short id of word characters. */
const GENERATION_ID_PATTERN = /^[\w-]{1,64}$/;

/** The `Generator` value that marks a text as ours. */
const GENERATOR = "Atelier";

/**
 * Longest recipe text read, in characters. A1111's texts with long LoRA lists stay far below it;
 * anything longer is not a recipe we could use, and is not worth scanning.
 */
export const MAX_RECIPE_TEXT = 64 * 1024;

/** The longest side an image in a recipe may claim, in pixels. */
const MAX_IMAGE_SIDE = 65_535;

const NEGATIVE_PREFIX = "Negative prompt:";

/** Fields as read from either form, before they are checked. */
export type RawFields = {
	prompt?: string;
	negativePrompt?: string;
	seed?: string;
	size?: string;
	width?: string;
	height?: string;
	modelId?: string;
	modelLabel?: string;
	aspectRatio?: string;
	count?: string;
	quality?: string;
	styleId?: string;
	styleName?: string;
	regionAction?: string;
	regionGenerationId?: string;
	originalPrompt?: string;
};

function readWholeNumber(text: string | undefined, max: number): number | null {
	if (text === undefined || !/^\d{1,10}$/.test(text.trim())) return null;
	const value = Number(text.trim());
	return value <= max ? value : null;
}

/** The offered ratio whose proportions are exactly these, if any. */
function ratioOfSize(width: number | null, height: number | null): AspectRatio | null {
	if (!width || !height) return null;
	const option = ASPECT_RATIOS.find((ratio) => width * ratio.height === height * ratio.width);
	return option?.value ?? null;
}

function readSize(fields: RawFields): { width: number | null; height: number | null } {
	const match = fields.size ? /^(\d{1,5})x(\d{1,5})$/.exec(fields.size.trim()) : null;
	const width = readWholeNumber(match?.[1] ?? fields.width, MAX_IMAGE_SIDE);
	const height = readWholeNumber(match?.[2] ?? fields.height, MAX_IMAGE_SIDE);
	return width && height ? { width, height } : { width: null, height: null };
}

function readRegionEdit(fields: RawFields): RecipeRegionEdit | null {
	const action = REGION_ACTIONS.find((known) => known === fields.regionAction?.trim());
	const generationId = fields.regionGenerationId?.trim() ?? "";
	return action && GENERATION_ID_PATTERN.test(generationId) ? { action, generationId } : null;
}

function readOptionalText(text: string | undefined): string | null {
	const trimmed = text?.trim() ?? "";
	return trimmed.length > 0 ? trimmed : null;
}

/**
 * Checks what a file said: a recipe needs a prompt; every other field that is missing or not one
 * Atelier could use (a seed out of range, a ratio it does not offer, ...) is left null.
 */
export function checkFields(fields: RawFields): ImageRecipe | null {
	const prompt = readOptionalText(fields.prompt);
	if (!prompt) return null;
	const { width, height } = readSize(fields);
	const named = fields.aspectRatio ? readRatioParam(fields.aspectRatio.trim()) : null;
	const modelId = readOptionalText(fields.modelId);
	const count = readWholeNumber(fields.count, 4);
	const quality = QUALITIES.find((level) => level === fields.quality?.trim()) ?? null;
	const styleId = readOptionalText(fields.styleId);
	const regionEdit = readRegionEdit(fields);
	const originalPrompt = readOptionalText(fields.originalPrompt);
	return {
		prompt,
		aspectRatio: named ?? ratioOfSize(width, height),
		model: modelId ? { id: modelId, label: readOptionalText(fields.modelLabel) ?? modelId } : null,
		count: IMAGE_COUNTS.find((allowed) => allowed === count) ?? null,
		seed: readWholeNumber(fields.seed, MAX_SEED),
		negativePrompt: readOptionalText(fields.negativePrompt),
		quality,
		width,
		height,
		style: styleId ? { id: styleId, name: readOptionalText(fields.styleName) ?? styleId } : null,
		...(regionEdit ? { regionEdit } : {}),
		// Only where the file says one: a recipe of a prompt never enhanced reads as it always did.
		...(originalPrompt ? { originalPrompt } : {}),
	};
}

// The `parameters` form -------------------------------------------------------------------------

/** A value as A1111 writes it: quoted as JSON when it holds a comma, colon, quote or line break. */
function quoteValue(value: string): string {
	return /[,:"\n\r]/.test(value) ? JSON.stringify(value) : value;
}

/**
 * The recipe as A1111's `parameters` text: the prompt, `Negative prompt: ...` when there is one,
 * and a last line of `Key: value` pairs.
 */
export function formatRecipeParameters(recipe: ImageRecipe): string {
	const pairs: [string, string | number][] = [];
	if (recipe.seed !== null) pairs.push(["Seed", recipe.seed]);
	if (recipe.width && recipe.height) pairs.push(["Size", `${recipe.width}x${recipe.height}`]);
	if (recipe.model) {
		pairs.push(["Model", recipe.model.label], ["Model id", recipe.model.id]);
	}
	if (recipe.aspectRatio) pairs.push(["Aspect ratio", toRatioParam(recipe.aspectRatio)]);
	if (recipe.count !== null) pairs.push(["Images", recipe.count]);
	if (recipe.quality) pairs.push(["Quality", recipe.quality]);
	if (recipe.style) pairs.push(["Style", recipe.style.name], ["Style id", recipe.style.id]);
	if (recipe.regionEdit) {
		pairs.push(["Region edit", recipe.regionEdit.action]);
		pairs.push(["Region edit of", recipe.regionEdit.generationId]);
	}
	if (recipe.originalPrompt) pairs.push(["Original prompt", recipe.originalPrompt]);
	pairs.push(["Generator", GENERATOR]);
	const lines = [recipe.prompt];
	if (recipe.negativePrompt) lines.push(`${NEGATIVE_PREFIX} ${recipe.negativePrompt}`);
	lines.push(pairs.map(([key, value]) => `${key}: ${quoteValue(String(value))}`).join(", "));
	return lines.join("\n");
}

/** The end of a JSON string starting at `start` (its opening quote), or -1. */
function findClosingQuote(line: string, start: number): number {
	for (let index = start + 1; index < line.length; index++) {
		if (line[index] === "\\") index++;
		else if (line[index] === '"') return index;
	}
	return -1;
}

function unquote(text: string): string | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === "string" ? value : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The `Key: value` pairs of a line, read by scanning rather than by a regular expression, so that
 * a long line without them costs one pass. Keys are words, spaces, `-` and `/`, as A1111 writes.
 */
function readPairs(line: string): Map<string, string> {
	const pairs = new Map<string, string>();
	let position = 0;
	while (position < line.length) {
		const colon = line.indexOf(":", position);
		if (colon < 0) break;
		const key = line.slice(position, colon).trim();
		let start = colon + 1;
		while (line[start] === " ") start++;
		let value: string | undefined;
		let next: number;
		if (line[start] === '"') {
			const end = findClosingQuote(line, start);
			if (end < 0) break;
			value = unquote(line.slice(start, end + 1));
			const comma = line.indexOf(",", end);
			next = comma < 0 ? line.length : comma + 1;
		} else {
			const comma = line.indexOf(",", start);
			next = comma < 0 ? line.length : comma + 1;
			value = line.slice(start, comma < 0 ? line.length : comma).trim();
		}
		if (value !== undefined && key.length <= 64 && /^\w[\w \-/]*$/.test(key)) {
			pairs.set(key, value);
		}
		position = next;
	}
	return pairs;
}

/**
 * Reads a `parameters` text, Atelier's or another tool's (A1111, Forge, ComfyUI's savers that
 * follow it): the prompt, the negative prompt, the seed and size, and Atelier's own keys. A last
 * line with fewer than three pairs is not a settings line, as in A1111, but part of the prompt.
 */
export function parseRecipeParameters(text: string): ImageRecipe | null {
	if (text.length > MAX_RECIPE_TEXT) return null;
	const lines = text.replace(/\r\n?/g, "\n").trim().split("\n");
	const lastLine = lines.at(-1) ?? "";
	const pairs = readPairs(lastLine);
	if (pairs.size >= 3) lines.pop();
	else pairs.clear();
	const negativeAt = lines.findIndex((line) => line.startsWith(NEGATIVE_PREFIX));
	const promptLines = negativeAt < 0 ? lines : lines.slice(0, negativeAt);
	const negativeLines = negativeAt < 0 ? [] : lines.slice(negativeAt);
	const negative = negativeLines.join("\n").slice(NEGATIVE_PREFIX.length);
	return checkFields({
		prompt: promptLines.join("\n"),
		negativePrompt: negative,
		seed: pairs.get("Seed"),
		size: pairs.get("Size"),
		modelId: pairs.get("Model id"),
		modelLabel: pairs.get("Model"),
		aspectRatio: pairs.get("Aspect ratio"),
		count: pairs.get("Images"),
		quality: pairs.get("Quality"),
		styleId: pairs.get("Style id"),
		styleName: pairs.get("Style"),
		regionAction: pairs.get("Region edit"),
		regionGenerationId: pairs.get("Region edit of"),
		originalPrompt: pairs.get("Original prompt"),
	});
}
