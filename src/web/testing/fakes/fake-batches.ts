import type {
	CreateBatchResponse,
	Generation,
} from "../../../shared/generations/generation-responses";
import type { PublicModel } from "../../../shared/generations/models";
import {
	expandAllVariations,
	parseVariations,
	pickRandomVariations,
} from "../../../shared/prompts/prompt-variations";
import { createTestGeneration } from "./test-generations";

const FAKE_BATCH_SEED = 4242;

/**
 * A start with `variations` or `models`, answered as the server does: one queued generation per
 * prompt and model, one batch id, the seed. Null for a start of one generation. Without the
 * server's checks (the cap, the quotas), which its own tests cover.
 */
export function createFakeBatch(
	body: unknown,
	models: readonly PublicModel[],
	takeId: () => string,
): { answer: CreateBatchResponse; generations: Generation[] } | null {
	if (typeof body !== "object" || body === null) return null;
	const fields: Record<string, unknown> = { ...body };
	const { variations, prompt } = fields;
	const modelIds = Array.isArray(fields.models) ? fields.models.map(String) : undefined;
	if ((variations === undefined && modelIds === undefined) || typeof prompt !== "string") {
		return null;
	}
	const parsed = parseVariations(prompt);
	let prompts = [prompt];
	if (parsed.ok && variations === "all") {
		prompts = expandAllVariations(parsed.parts, parsed.combinations);
	} else if (parsed.ok && typeof variations === "object" && variations !== null) {
		const count = "random" in variations ? Number(variations.random) : 1;
		prompts = pickRandomVariations(parsed.parts, parsed.combinations, count, FAKE_BATCH_SEED);
	}
	const chosen = modelIds
		? models.filter((model) => modelIds.includes(model.id))
		: models.filter((model) => model.id === fields.model).slice(0, 1);
	const batchModels = chosen.length > 0 ? chosen : models.slice(0, 1);
	const batchId = "5f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b";
	const generations = prompts.flatMap((expanded) =>
		batchModels.map((model) =>
			createTestGeneration({
				id: takeId(),
				prompt: expanded,
				status: "queued",
				images: [],
				completed_at: null,
				model: { id: model.id, label: model.label },
				batchId,
			}),
		),
	);
	return {
		answer: {
			success: true,
			batchId,
			seed: FAKE_BATCH_SEED,
			generations: generations.map((generation) => ({
				id: generation.id,
				pollingUrl: `/api/generations/${generation.id}/status`,
				prompt: generation.prompt,
				model: generation.model,
				settings: generation.settings,
			})),
		},
		generations,
	};
}
