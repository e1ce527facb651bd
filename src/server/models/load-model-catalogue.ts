import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ASPECT_RATIO_VALUES } from "../../shared/generations/aspect-ratios";
import { IMAGE_COUNTS, QUALITIES } from "../../shared/generations/generation-settings";
import type { Env } from "../config/env";
import {
	createProvider,
	createProviderFromEnv,
	findProvider,
	PROVIDER_NAMES,
	providerLabel,
} from "../providers/registry/provider-registry";
import {
	MODEL_INPUT_NAME_MESSAGE,
	MODEL_INPUT_NAME_PATTERN,
} from "../providers/shared/input-names";
import { type ProviderContext, ProviderOptionError } from "../providers/shared/provider-definition";
import type { ProviderCapabilities } from "../providers/types";
import {
	catalogueOfOne,
	createModelCatalogue,
	type Model,
	type ModelCatalogue,
	modelFromProvider,
} from "./model-catalogue";

/** The models file cannot be used: every problem, each naming its entry and field. */
export class ModelsFileError extends Error {
	readonly problems: readonly string[];
	constructor(problems: readonly string[]) {
		super(`MODELS_FILE has problems:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
		this.problems = problems;
	}
}

/** Providers whose entries name the model's own image input (a hosted model's input name). */
const NAMED_IMAGE_INPUT_PROVIDERS = PROVIDER_NAMES.filter(
	(name) => findProvider(name)?.namesImageInput,
);
const NAMED_IMAGE_INPUT_TEXT = NAMED_IMAGE_INPUT_PROVIDERS.join(" and ");

/** The factors an upscale may ask for (the API's `factor`). */
const UPSCALE_FACTORS = [2, 4] as const;

const uniqueList = <T extends z.ZodType>(item: T, what: string) =>
	z
		.array(item)
		.min(1, `must name at least one ${what}`)
		.refine((list) => new Set(list).size === list.length, `must not name a ${what} twice`);

/** What every entry has, whatever its provider; the rest of the entry is the provider's options. */
const EntrySchema = z.looseObject({
	id: z
		.string({ error: "is required" })
		.regex(/^[A-Za-z0-9-]{1,64}$/, "must be 1 to 64 letters, digits or -"),
	label: z.string({ error: "is required" }).trim().min(1, "is required").max(80),
	provider: z.enum(PROVIDER_NAMES, {
		error: `must be one of ${PROVIDER_NAMES.join(", ")}`,
	}),
	description: z.string().trim().max(300).optional(),
	pricePerImage: z.number().min(0, "must be 0 or more US dollars").optional(),
	default: z.boolean().optional(),
	ratios: uniqueList(
		z.enum(ASPECT_RATIO_VALUES, { error: `must be one of ${ASPECT_RATIO_VALUES.join(", ")}` }),
		"ratio",
	).optional(),
	counts: uniqueList(
		z.number().int().min(1).max(IMAGE_COUNTS.length, `must be from 1 to ${IMAGE_COUNTS.length}`),
		"count",
	).optional(),
	seed: z.boolean().optional(),
	negativePrompt: z.boolean().optional(),
	qualities: uniqueList(z.enum(QUALITIES), "quality").optional(),
	/**
	 * Whether the model takes a reference image (false turns it off); for Replicate and fal the
	 * name of the model's input the image goes in, such as "image".
	 */
	imageInput: z
		.union([z.boolean(), z.string().trim().regex(MODEL_INPUT_NAME_PATTERN)], {
			error: `must be true, false, or (for ${NAMED_IMAGE_INPUT_TEXT}) ${MODEL_INPUT_NAME_MESSAGE.replace("must be ", "")}`,
		})
		.optional(),
	/**
	 * Whether the model edits a region (false turns it off); for Replicate and fal the name of the
	 * model's input the mask goes in, such as "mask" or "mask_url".
	 */
	mask: z
		.union([z.boolean(), z.string().trim().regex(MODEL_INPUT_NAME_PATTERN)], {
			error: `must be true, false, or (for ${NAMED_IMAGE_INPUT_TEXT}) ${MODEL_INPUT_NAME_MESSAGE.replace("must be ", "")}`,
		})
		.optional(),
	/** Whether the model expands a frame (false turns it off). */
	outpaint: z.boolean({ error: "must be true or false" }).optional(),
	/** false stores a region edit's result as the provider made it, not laid over its source. */
	keepUnmasked: z.boolean({ error: "must be true or false" }).optional(),
	/** The upscale factors offered (an empty list offers none). */
	upscale: z
		.array(
			z.union(
				UPSCALE_FACTORS.map((factor) => z.literal(factor)),
				{ error: `must list factors among ${UPSCALE_FACTORS.join(", ")}` },
			),
		)
		.refine((list) => new Set(list).size === list.length, "must not name a factor twice")
		.optional(),
});
type Entry = z.infer<typeof EntrySchema>;

const COMMON_FIELDS = new Set(Object.keys(EntrySchema.shape));

/**
 * The models this server offers. Without MODELS_FILE, the one model IMAGE_PROVIDER and its
 * variables describe, so every setup made before there was a choice keeps working unchanged.
 * With it, every entry is checked at start like the environment: a ModelsFileError lists every
 * problem, naming the entry and the field.
 */
export function loadModelCatalogue(env: Env, cwd: string = process.cwd()): ModelCatalogue {
	if (!env.MODELS_FILE) {
		return catalogueOfOne(createProviderFromEnv(env));
	}
	const file = path.resolve(cwd, env.MODELS_FILE);
	return readModelsFile(file, { env, baseDir: path.dirname(file) });
}

function readModelsFile(file: string, context: ProviderContext<Env>): ModelCatalogue {
	let json: unknown;
	try {
		json = JSON.parse(readFileSync(file, "utf8"));
	} catch (error) {
		throw new ModelsFileError([`${file}: ${messageOf(error)}`]);
	}
	if (!Array.isArray(json) || json.length === 0) {
		throw new ModelsFileError([`${file}: must be a JSON array of one or more models`]);
	}
	const problems: string[] = [];
	const models: Model[] = [];
	const defaults: string[] = [];
	const seen = new Set<string>();
	json.forEach((raw: unknown, index) => {
		const name = entryName(raw, index);
		const report = (field: string, message: string) =>
			problems.push(`${name}: ${field}: ${message}`);
		const parsed = EntrySchema.safeParse(raw);
		if (!parsed.success) {
			for (const issue of parsed.error.issues)
				report(issue.path.join(".") || "entry", issue.message);
			return;
		}
		const entry = parsed.data;
		if (seen.has(entry.id)) report("id", `"${entry.id}" is used by an earlier entry`);
		seen.add(entry.id);
		if (entry.default) defaults.push(entry.id);
		const model = buildModel(entry, context, report);
		if (model) models.push(model);
	});
	if (defaults.length > 1) {
		problems.push(`default: only one model may be the default; these are: ${defaults.join(", ")}`);
	}
	if (problems.length > 0) throw new ModelsFileError(problems);
	const defaultModelId = defaults[0] ?? models[0]?.id;
	if (!defaultModelId) throw new ModelsFileError([`${file}: offers no model`]);
	return createModelCatalogue(models, defaultModelId);
}

function buildModel(
	entry: Entry,
	context: ProviderContext<Env>,
	report: (field: string, message: string) => void,
): Model | undefined {
	const options = Object.fromEntries(
		Object.entries(entry).filter(([key]) => !COMMON_FIELDS.has(key)),
	);
	let provider: ReturnType<typeof createProvider>;
	try {
		provider = createProvider(entry.provider, options, context, {
			...(entry.imageInput !== undefined ? { imageInput: entry.imageInput } : {}),
			...(entry.upscale ? { upscale: entry.upscale } : {}),
			...(entry.mask !== undefined ? { mask: entry.mask } : {}),
			...(entry.outpaint !== undefined ? { outpaint: entry.outpaint } : {}),
		});
	} catch (error) {
		if (error instanceof ProviderOptionError) {
			for (const problem of error.problems) report(problem.field, problem.message);
		} else {
			report("provider", messageOf(error));
		}
		return undefined;
	}
	// An entry narrows what its provider offers; it cannot offer what the provider lacks.
	const { capabilities } = provider;
	const label = providerLabel(entry.provider);
	if (entry.seed === true && !capabilities.seed) report("seed", `${label} takes no seed`);
	if (entry.negativePrompt === true && !capabilities.negativePrompt) {
		report("negativePrompt", `${label} takes no negative prompt`);
	}
	const tooMany = entry.counts?.filter((count) => count > capabilities.maxCount) ?? [];
	if (tooMany.length > 0) {
		report("counts", `${label} makes at most ${capabilities.maxCount} images a generation`);
	}
	const unknownQualities =
		entry.qualities?.filter((quality) => !capabilities.qualities.includes(quality)) ?? [];
	if (unknownQualities.length > 0) {
		report(
			"qualities",
			capabilities.qualities.length === 0
				? `${label} has no quality setting`
				: `${label} offers only ${capabilities.qualities.join(", ")}`,
		);
	}
	checkImageFields(entry, capabilities, label, report);
	return modelFromProvider(provider, {
		id: entry.id,
		label: entry.label,
		description: entry.description ?? null,
		pricePerImage: entry.pricePerImage ?? null,
		...(entry.ratios ? { ratios: entry.ratios } : {}),
		...(entry.counts ? { counts: entry.counts } : {}),
		...(entry.seed !== undefined ? { seed: entry.seed } : {}),
		...(entry.negativePrompt !== undefined ? { negativePrompt: entry.negativePrompt } : {}),
		...(entry.qualities ? { qualities: entry.qualities } : {}),
		...(entry.imageInput !== undefined ? { imageInput: entry.imageInput !== false } : {}),
		...(entry.upscale ? { upscale: entry.upscale } : {}),
		...(entry.mask !== undefined ? { mask: entry.mask !== false } : {}),
		...(entry.outpaint !== undefined ? { outpaint: entry.outpaint } : {}),
		...(entry.keepUnmasked !== undefined ? { keepUnmasked: entry.keepUnmasked } : {}),
	});
}

/** An entry's image fields that ask for what its provider cannot do. */
function checkImageFields(
	entry: Entry,
	capabilities: ProviderCapabilities,
	label: string,
	report: (field: string, message: string) => void,
): void {
	const { imageInputNeeds, upscaleNeeds, maskNeeds, namesImageInput } =
		findProvider(entry.provider) ?? {};
	if (typeof entry.imageInput === "string" && !namesImageInput) {
		report(
			"imageInput",
			`names a model input only for ${NAMED_IMAGE_INPUT_TEXT}; ${label} takes true or false`,
		);
	} else if (entry.imageInput === true && !capabilities.imageInput) {
		report(
			"imageInput",
			imageInputNeeds
				? `${label} takes an image only with ${imageInputNeeds}`
				: `${label} takes no reference image`,
		);
	}
	if (typeof entry.mask === "string" && !namesImageInput) {
		report(
			"mask",
			`names a model input only for ${NAMED_IMAGE_INPUT_TEXT}; ${label} takes true or false`,
		);
	} else if (entry.mask !== undefined && entry.mask !== false && !capabilities.mask) {
		report(
			"mask",
			maskNeeds ? `${label} edits a region only with ${maskNeeds}` : `${label} takes no mask`,
		);
	}
	if (entry.outpaint === true && !capabilities.outpaint) {
		report(
			"outpaint",
			maskNeeds
				? `${label} expands a frame only with ${maskNeeds}`
				: `${label} cannot paint beyond a frame`,
		);
	}
	const unoffered = entry.upscale?.filter(
		(factor) => !capabilities.upscaleFactors.includes(factor),
	);
	if (unoffered && unoffered.length > 0) {
		report(
			"upscale",
			capabilities.upscaleFactors.length === 0
				? upscaleNeeds
					? `${label} upscales only with ${upscaleNeeds}`
					: `${label} cannot upscale`
				: `${label} offers only ${capabilities.upscaleFactors.join(", ")}`,
		);
	}
}

/** "entry 2 (flux-pro)": its place in the file, counting from 1, and its id when it has one. */
function entryName(raw: unknown, index: number): string {
	const id =
		typeof raw === "object" && raw !== null && "id" in raw && typeof raw.id === "string"
			? ` (${raw.id})`
			: "";
	return `entry ${index + 1}${id}`;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
