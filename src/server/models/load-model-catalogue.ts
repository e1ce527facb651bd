import type { Env } from "../env";
import { createProviderFromEnv } from "../provider-from-env";
import { catalogueOfOne, type ModelCatalogue } from "./model-catalogue";

/**
 * The models this server offers: without MODELS_FILE, the one model IMAGE_PROVIDER and its
 * variables describe, so every setup made before there was a choice keeps working unchanged.
 */
export function loadModelCatalogue(env: Env): ModelCatalogue {
	return catalogueOfOne(createProviderFromEnv(env));
}
