// What the generator's batch controls ask for (batch-field.tsx): the prompt's variations, the
// models compared, and what that makes (how many generations, at what price), before Generate.
import { MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from "../../../../shared/generations/batches";
import type { PublicModel } from "../../../../shared/generations/models";
import { parseVariations } from "../../../../shared/prompts/prompt-variations";

export type BatchChoice = {
	variations: "off" | "all" | "random";
	/** How many random picks `random` makes. */
	randomCount: number;
	isComparing: boolean;
	/** The models compared, in the catalogue's order; 2 to 4 of them to compare. */
	comparedModelIds: readonly string[];
};

export const NO_BATCH: BatchChoice = {
	variations: "off",
	randomCount: 4,
	isComparing: false,
	comparedModelIds: [],
};

/** What a batch choice adds to a start's body; null when it makes a single generation. */
export type BatchRequest = {
	variations?: "all" | { random: number };
	models?: string[];
};

/** The prompts a choice makes from this prompt (1 without variations); 0 when it cannot vary. */
function countPrompts(choice: BatchChoice, prompt: string): number {
	if (choice.variations === "off") return 1;
	const parsed = parseVariations(prompt);
	if (!parsed.ok || parsed.groups === 0) return 1;
	if (choice.variations === "all") return parsed.combinations;
	return Math.min(choice.randomCount, parsed.combinations);
}

function isVarying(choice: BatchChoice, prompt: string): boolean {
	if (choice.variations === "off") return false;
	const parsed = parseVariations(prompt);
	return parsed.ok && parsed.groups > 0;
}

function isComparing(choice: BatchChoice): boolean {
	return choice.isComparing && choice.comparedModelIds.length >= MIN_COMPARED_MODELS;
}

/** The body's batch part, or null when the choice (with this prompt) makes one generation. */
export function toBatchRequest(choice: BatchChoice, prompt: string): BatchRequest | null {
	const request: BatchRequest = {};
	if (isVarying(choice, prompt)) {
		request.variations = choice.variations === "all" ? "all" : { random: choice.randomCount };
	}
	if (isComparing(choice)) request.models = [...choice.comparedModelIds];
	return request.variations || request.models ? request : null;
}

export type BatchSummary = {
	generations: number;
	/** Each compared model's price for one of its generations (null without a price). */
	prices: { model: PublicModel; price: number | null }[];
	/** What the whole batch costs; null when a model has no price. */
	total: number | null;
};

/**
 * What the choice makes: the number of generations and, from the catalogue's prices, each
 * model's cost and the total (`count` images each).
 */
export function summarizeBatch(
	choice: BatchChoice,
	prompt: string,
	models: readonly PublicModel[],
	current: PublicModel,
	count: number,
): BatchSummary {
	const prompts = countPrompts(choice, prompt);
	const chosen = isComparing(choice)
		? models.filter((model) => choice.comparedModelIds.includes(model.id))
		: [current];
	const prices = chosen.map((model) => ({
		model,
		price: model.pricePerImage === null ? null : model.pricePerImage * count,
	}));
	const total = prices.some(({ price }) => price === null)
		? null
		: prices.reduce((sum, { price }) => sum + (price ?? 0), 0) * prompts;
	return { generations: prompts * chosen.length, prices, total };
}

/** Whether another model may be ticked to compare. */
export function canCompareMore(choice: BatchChoice): boolean {
	return choice.comparedModelIds.length < MAX_COMPARED_MODELS;
}
