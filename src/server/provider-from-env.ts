import type { Env } from "./config/env";
import { createProvider } from "./models/provider-options";
import type { ImageProvider } from "./providers/types";

/**
 * The image provider `IMAGE_PROVIDER` names, configured from its own variables: a models-file
 * entry with no options. Throws, at boot, an error naming what to fix.
 */
export function createProviderFromEnv(env: Env): ImageProvider {
	return createProvider(env.IMAGE_PROVIDER, {}, { env, baseDir: process.cwd() });
}
