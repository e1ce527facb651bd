import { z } from "zod";
import type { ImageProvider } from "../types";

// What a provider is to the rest of the server: its environment variables, its MODELS_FILE
// options and how it is built from them. Each vendor's folder defines its own (defineProvider);
// providers/registry/provider-registry.ts names them all. An option an entry leaves out falls back to the provider's
// environment variable (and its default), so the catalogue without MODELS_FILE is simply an entry
// with no options. Secrets are never options: they stay in the environment.

/** The variables every provider may read, beside its own. */
export type CommonProviderEnv = {
	GENERATION_TIMEOUT_MS: number;
	IMAGE_DOWNLOAD_MAX_BYTES: number;
	LOG_LEVEL: "debug" | "info" | "warn" | "error";
};

/** Where relative paths in an entry (a ComfyUI workflow file) are read from, and the environment. */
export type ProviderContext<Env = CommonProviderEnv> = { env: Env; baseDir: string };

/**
 * What an entry's common fields say of images, which a hosted model (Replicate, fal) is built
 * from: there `imageInput` names the model's image input and `upscale` an upscaler's factors.
 */
export type EntryImageFields = {
	imageInput?: boolean | string;
	upscale?: readonly number[];
	/** Whether it edits a region; for a hosted model, the name of its mask input. */
	mask?: boolean | string;
	/** false turns Expand off where the model could paint beyond the frame. */
	outpaint?: boolean;
};

/** Problems with options of an entry: which option, and what is wrong with it. */
export class ProviderOptionError extends Error {
	readonly problems: readonly { field: string; message: string }[];
	constructor(field: string, message: string);
	constructor(problems: readonly { field: string; message: string }[]);
	constructor(
		fieldOrProblems: string | readonly { field: string; message: string }[],
		message = "",
	) {
		const problems =
			typeof fieldOrProblems === "string" ? [{ field: fieldOrProblems, message }] : fieldOrProblems;
		super(problems.map((problem) => `${problem.field}: ${problem.message}`).join("; "));
		this.problems = problems;
	}
}

/** A secret the provider cannot start without, which only the environment holds. */
export function requireValue(value: string | undefined, field: string, variable: string): string {
	if (!value) throw new ProviderOptionError(field, `needs ${variable} in the environment`);
	return value;
}

type EnvOf<EnvShape extends z.ZodRawShape> = z.output<z.ZodObject<EnvShape>> & CommonProviderEnv;

/** One provider as its folder describes it; see defineProvider. */
export type ProviderDefinition<EnvShape extends z.ZodRawShape = z.ZodRawShape> = {
	/**
	 * What people see it called: its model's label without MODELS_FILE, which generations made
	 * before models existed were given too (migration 0007: their model id is the provider's name).
	 */
	label: string;
	/** Its own environment variables, which env.ts's one schema spreads in. */
	env: EnvShape;
	/** The variable it cannot start without when IMAGE_PROVIDER names it (none: starts on its own). */
	requires?: keyof EnvShape & string;
	/** Whether an entry's `imageInput` names the model's image input (a hosted model's). */
	namesImageInput?: boolean;
	/** What it takes an image with, where that is a configuration of its own. */
	imageInputNeeds?: string;
	/** What it upscales with, where that is a configuration of its own. */
	upscaleNeeds?: string;
	/** What it edits a region with (a mask input, a workflow), where that is a configuration. */
	maskNeeds?: string;
	/** Builds it from an entry's options (checked, each naming its field) and the environment. */
	create(
		options: Record<string, unknown>,
		context: ProviderContext<EnvOf<EnvShape>>,
		image: EntryImageFields,
	): ImageProvider;
};

/**
 * A provider from its variables, its options' shape and a factory that gets them parsed: an
 * unknown option (a typo) is a problem too, named like every other.
 */
export function defineProvider<EnvShape extends z.ZodRawShape, OptionShape extends z.ZodRawShape>(
	definition: Omit<ProviderDefinition<EnvShape>, "create"> & {
		options: OptionShape;
		create(
			options: z.infer<z.ZodObject<OptionShape>>,
			context: ProviderContext<EnvOf<EnvShape>>,
			image: EntryImageFields,
		): ImageProvider;
	},
): ProviderDefinition<EnvShape> {
	const { options: shape, create, ...rest } = definition;
	return {
		...rest,
		create: (options, context, image) => create(parseOptions(shape, options), context, image),
	};
}

function parseOptions<Shape extends z.ZodRawShape>(
	shape: Shape,
	options: Record<string, unknown>,
): z.infer<z.ZodObject<Shape>> {
	const result = z.strictObject(shape).safeParse(options);
	if (result.success) return result.data;
	throw new ProviderOptionError(
		result.error.issues.flatMap((issue) =>
			issue.code === "unrecognized_keys"
				? issue.keys.map((key) => ({
						field: [...issue.path, key].join("."),
						message: "is not an option of this provider",
					}))
				: [{ field: issue.path.join("."), message: issue.message }],
		),
	);
}
