import type { z } from "zod";
import { COMFYUI_PROVIDER } from "../comfyui/comfyui-options";
import { FAL_PROVIDER } from "../fal/fal-options";
// biome-ignore lint/style/noRestrictedImports: providers/http/ is the start-then-poll image service, not the HTTP floor
import { HTTP_PROVIDER } from "../http/http-options";
import { LOCAL_PROVIDER } from "../local/local-options";
import { OPENAI_PROVIDER } from "../openai/openai-options";
import { REPLICATE_PROVIDER } from "../replicate/replicate-options";
import type {
	CommonProviderEnv,
	EntryImageFields,
	ProviderContext,
	ProviderDefinition,
} from "../shared/provider-definition";
import type { ImageProvider } from "../types";

// Every image service Atelier can use, each named once: its folder defines it (variables,
// requirements, MODELS_FILE options, factory), and env.ts, the models file and IMAGE_PROVIDER
// all read this table. A new provider is one line here.

export const PROVIDERS = {
	local: LOCAL_PROVIDER,
	http: HTTP_PROVIDER,
	comfyui: COMFYUI_PROVIDER,
	replicate: REPLICATE_PROVIDER,
	openai: OPENAI_PROVIDER,
	fal: FAL_PROVIDER,
};

export type ProviderName = keyof typeof PROVIDERS;

/** What the rest of the server reads of a provider without building it. */
export type ProviderFacts = Omit<ProviderDefinition, "create" | "env" | "requires"> & {
	env: z.ZodRawShape;
	requires?: string;
};

const entries: [ProviderName, ProviderFacts][] = Object.entries(PROVIDERS).map(
	([name, definition]) => [name as ProviderName, definition],
);

export const PROVIDER_NAMES = entries.map(([name]) => name) as [ProviderName, ...ProviderName[]];

type Definitions = (typeof PROVIDERS)[ProviderName];
type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
	value: infer I,
) => void
	? I
	: never;

/** Every provider's own environment variables, in the table's order (env.ts spreads them). */
export const PROVIDER_ENV_SHAPE = Object.assign(
	{},
	...entries.map(([, definition]) => definition.env),
) as UnionToIntersection<Definitions["env"]>;

/** The environment every provider is built from: their own variables and the common ones. */
export type ProviderEnv = z.output<z.ZodObject<typeof PROVIDER_ENV_SHAPE>> & CommonProviderEnv;

/**
 * The variable the provider IMAGE_PROVIDER names cannot start without, when it is unset (the
 * built-in engine needs none).
 */
export function findMissingVariable(
	env: Readonly<Record<string, unknown>> & { IMAGE_PROVIDER: ProviderName },
): string | undefined {
	const variable = findProvider(env.IMAGE_PROVIDER)?.requires;
	return variable && !env[variable] ? variable : undefined;
}

/** The label a provider's model has when no MODELS_FILE names it (and old generations' models). */
export function providerLabel(name: string): string {
	return findProvider(name)?.label ?? name;
}

/** The provider of this name, or undefined for a name that is none of them. */
export function findProvider(name: string): ProviderFacts | undefined {
	return entries.find(([known]) => known === name)?.[1];
}

/** Builds the provider an entry (or, with no options, the environment) describes. */
export function createProvider(
	name: ProviderName,
	options: Record<string, unknown>,
	context: ProviderContext<ProviderEnv>,
	image: EntryImageFields = {},
): ImageProvider {
	return PROVIDERS[name].create(options, context, image);
}

/**
 * The image provider `IMAGE_PROVIDER` names, configured from its own variables: a models-file
 * entry with no options. Throws, at boot, an error naming what to fix.
 */
export function createProviderFromEnv(
	env: ProviderEnv & { IMAGE_PROVIDER: ProviderName },
): ImageProvider {
	return createProvider(env.IMAGE_PROVIDER, {}, { env, baseDir: process.cwd() });
}
