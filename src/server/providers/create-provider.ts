import type { Env } from "../env";
import { createHttpProvider } from "./http/http-provider";
import { createLocalProvider } from "./local/local-provider";
import type { ImageProvider } from "./types";

/** The image provider `IMAGE_PROVIDER` names, configured from its own variables. */
export function createProviderFromEnv(env: Env): ImageProvider {
	switch (env.IMAGE_PROVIDER) {
		case "local":
			return createLocalProvider({ delayMs: env.LOCAL_ENGINE_DELAY_MS });
		case "http": {
			if (!env.IMAGE_API_URL)
				throw new Error("IMAGE_API_URL is required when IMAGE_PROVIDER is http");
			return createHttpProvider({
				apiUrl: env.IMAGE_API_URL,
				...(env.IMAGE_API_KEY ? { apiKey: env.IMAGE_API_KEY } : {}),
			});
		}
	}
}
