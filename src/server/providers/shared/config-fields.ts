import { z } from "zod";
import { MODEL_INPUT_NAME_MESSAGE, MODEL_INPUT_NAME_PATTERN, NO_SEED_INPUT } from "./input-names";

// The fields a provider's settings are written with, twice over: as environment variables (text,
// parsed by env.ts's one schema) and as options of a MODELS_FILE entry (JSON).

/** A variable that may be left empty: trimmed, and empty means unset. */
export const optionalString = z
	.string()
	.trim()
	.transform((value) => (value === "" ? undefined : value))
	.optional();

/** An http(s) URL variable that may be left unset. */
export const optionalHttpUrlVariable = optionalString.pipe(
	z.url({ protocol: /^https?$/ }).optional(),
);

/** An http(s) URL variable with a default (a vendor's API). */
export const httpUrlVariable = (fallback: string) =>
	z
		.url({ protocol: /^https?$/, error: "must be an http(s) URL" })
		.optional()
		.default(fallback);

/** How many images a hosted model makes a request, as a variable. */
export const imagesPerRequestVariable = (fallback: number) =>
	z.coerce.number().int().min(1).max(4).optional().default(fallback);

/** The name of one of a hosted model's inputs, such as `negative_prompt`, as a variable. */
export const modelInputVariable = optionalString.pipe(
	z.string().regex(MODEL_INPUT_NAME_PATTERN, MODEL_INPUT_NAME_MESSAGE).optional(),
);

/** A hosted model's seed input, or `none` for a model that takes no seed, as a variable. */
export const seedInputVariable = (fallback: string) =>
	z
		.string()
		.trim()
		.refine((value) => value === NO_SEED_INPUT || MODEL_INPUT_NAME_PATTERN.test(value), {
			message: `${MODEL_INPUT_NAME_MESSAGE}, or ${NO_SEED_INPUT}`,
		})
		.optional()
		.default(fallback);

/** Extra model input as a JSON object, such as `{"output_format": "png"}`, as a variable. */
export const jsonObjectVariable = optionalString.pipe(
	z
		.string()
		.transform((text, context) => {
			try {
				const value: unknown = JSON.parse(text);
				const parsed = z.record(z.string(), z.unknown()).safeParse(value);
				if (parsed.success) return parsed.data;
			} catch {
				// Reported below, like any value that is not an object.
			}
			context.addIssue({
				code: "custom",
				message: 'must be a JSON object, such as {"output_format":"png"}',
			});
			return z.NEVER;
		})
		.optional(),
);

/** An http(s) URL option. */
export const httpUrlOption = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
/** How many images a hosted model makes a request, as an option. */
export const imagesPerRequestOption = z.number().int().min(1).max(4);
/** Extra model input, as an option. */
export const inputObjectOption = z.record(z.string(), z.unknown());
/** The name of one of a hosted model's inputs, as an option. */
export const modelInputOption = z
	.string()
	.trim()
	.regex(MODEL_INPUT_NAME_PATTERN, MODEL_INPUT_NAME_MESSAGE);
/** The model's seed input, or `none` for a model that takes no seed, as an option. */
export const seedInputOption = z.union([modelInputOption, z.literal(NO_SEED_INPUT)], {
	error: `${MODEL_INPUT_NAME_MESSAGE}, or ${NO_SEED_INPUT}`,
});
