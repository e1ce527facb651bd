import { modelInputOption, seedInputOption } from "./config-fields";
import type { HostedImageInputs } from "./hosted-image-input";
import { NO_SEED_INPUT } from "./input-names";
import { type EntryImageFields, ProviderOptionError } from "./provider-definition";

// The options a hosted model (Replicate, fal) shares: which of the model's inputs take the seed,
// the negative prompt, the reference strength and an upscaler's factor.

/** The model-input options of a hosted model's entry, after its own. */
export const HOSTED_MODEL_INPUT_OPTIONS = {
	seedInput: seedInputOption.optional(),
	negativePromptInput: modelInputOption.optional(),
	/** The model's reference strength input (0 to 1), with `imageInput` naming its image input. */
	strengthInput: modelInputOption.optional(),
	/** An upscaler's factor input, with `imageInput` and `upscale` (its factors). */
	scaleInput: modelInputOption.optional(),
};

/** What a hosted model's variables say of its inputs, which its entry's options override. */
export type HostedModelVariables = {
	input: Record<string, unknown> | undefined;
	seedInput: string;
	negativePromptInput: string | undefined;
};

/**
 * A hosted model's inputs, each the entry's option, else its variable: the extra input, the seed
 * and negative prompt inputs (`none` is a model without a seed), and its image inputs.
 */
export function readHostedModelInputs(
	options: {
		input?: Record<string, unknown>;
		seedInput?: string;
		negativePromptInput?: string;
		strengthInput?: string;
		scaleInput?: string;
	},
	variables: HostedModelVariables,
	image: EntryImageFields,
): {
	imageInputs?: HostedImageInputs;
	extraInput?: Record<string, unknown>;
	seedInput: string | null;
	negativePromptInput?: string;
} {
	const imageInputs = readHostedImageInputs(options, image);
	const extraInput = options.input ?? variables.input;
	const seedInput = options.seedInput ?? variables.seedInput;
	const negativePromptInput = options.negativePromptInput ?? variables.negativePromptInput;
	return {
		...(imageInputs ? { imageInputs } : {}),
		...(extraInput ? { extraInput } : {}),
		seedInput: seedInput === NO_SEED_INPUT ? null : seedInput,
		...(negativePromptInput ? { negativePromptInput } : {}),
	};
}

/**
 * A hosted model's image inputs from its entry: `imageInput` names the input the image goes in
 * (with `strengthInput` for the strength), and an upscaler adds `scaleInput` and `upscale`.
 * Every field that cannot work without another is named.
 */
function readHostedImageInputs(
	options: { strengthInput?: string; scaleInput?: string },
	image: EntryImageFields,
): HostedImageInputs | undefined {
	const problems: { field: string; message: string }[] = [];
	const name = typeof image.imageInput === "string" ? image.imageInput : undefined;
	const factors = image.upscale ?? [];
	if (image.imageInput === true) {
		problems.push({
			field: "imageInput",
			message: 'must name the model\'s image input, such as "image" or "image_url"',
		});
	}
	if (options.scaleInput !== undefined) {
		if (name === undefined && image.imageInput !== true) {
			problems.push({
				field: "imageInput",
				message: 'an upscaler (scaleInput) must name its image input, such as "image"',
			});
		}
		if (factors.length === 0) {
			problems.push({
				field: "upscale",
				message: "an upscaler (scaleInput) must list the factors it offers, such as [2, 4]",
			});
		}
		if (options.strengthInput !== undefined) {
			problems.push({
				field: "strengthInput",
				message: "an upscaler (scaleInput) takes no reference strength",
			});
		}
	} else if (factors.length > 0) {
		problems.push({
			field: "scaleInput",
			message:
				'is required to upscale (upscale lists factors): the model\'s factor input, such as "scale"',
		});
	}
	if (image.mask === true) {
		problems.push({
			field: "mask",
			message: 'must name the model\'s mask input, such as "mask" or "mask_url"',
		});
	}
	const maskName = typeof image.mask === "string" ? image.mask : undefined;
	if (maskName !== undefined && name === undefined && image.imageInput !== true) {
		problems.push({
			field: "mask",
			message: "needs imageInput, the name of the model's image input",
		});
	}
	if (maskName !== undefined && options.scaleInput !== undefined) {
		problems.push({ field: "mask", message: "an upscaler (scaleInput) takes no mask" });
	}
	if (options.strengthInput !== undefined && name === undefined && image.imageInput !== true) {
		problems.push({
			field: "strengthInput",
			message: "needs imageInput, the name of the model's image input",
		});
	}
	if (problems.length > 0) throw new ProviderOptionError(problems);
	if (name === undefined) return undefined;
	if (options.scaleInput !== undefined) {
		return { image: name, upscale: { scale: options.scaleInput, factors } };
	}
	return {
		image: name,
		...(options.strengthInput !== undefined ? { strength: options.strengthInput } : {}),
		...(maskName !== undefined ? { mask: maskName } : {}),
		...(image.outpaint !== undefined ? { outpaint: image.outpaint } : {}),
	};
}
