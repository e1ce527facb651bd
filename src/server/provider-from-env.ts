import { readFileSync } from "node:fs";
import type { Env } from "./env";
import { createLogger } from "./logging/logger";
import { createComfyUiProvider } from "./providers/comfyui/comfyui-provider";
import {
	type ComfyUiBindings,
	type InputRef,
	parseInputRef,
	parseWorkflowText,
} from "./providers/comfyui/comfyui-workflow";
import { createFalProvider } from "./providers/fal/fal-provider";
import { createHttpProvider } from "./providers/http/http-provider";
import { createLocalProvider } from "./providers/local/local-provider";
import { createOpenAiProvider } from "./providers/openai/openai-provider";
import { createReplicateProvider } from "./providers/replicate/replicate-provider";
import type { ImageProvider } from "./providers/types";

/**
 * The image provider `IMAGE_PROVIDER` names, configured from its own variables. Throws, at boot,
 * an error naming the variable to fix when the configuration cannot work.
 */
export function createProviderFromEnv(env: Env): ImageProvider {
	switch (env.IMAGE_PROVIDER) {
		case "local":
			return createLocalProvider({ delayMs: env.LOCAL_ENGINE_DELAY_MS });
		case "http":
			return createHttpProvider({
				apiUrl: requireValue(env.IMAGE_API_URL, "IMAGE_API_URL", "http"),
				...(env.IMAGE_API_KEY ? { apiKey: env.IMAGE_API_KEY } : {}),
			});
		case "comfyui":
			return createComfyUiProvider({
				url: requireValue(env.COMFYUI_URL, "COMFYUI_URL", "comfyui"),
				...(env.COMFYUI_WORKFLOW_FILE
					? { workflow: readWorkflowFile(env.COMFYUI_WORKFLOW_FILE) }
					: {}),
				bindings: readBindings(env),
				...(env.COMFYUI_CHECKPOINT ? { checkpoint: env.COMFYUI_CHECKPOINT } : {}),
				sizes: env.COMFYUI_SIZES,
				...(env.COMFYUI_AUTH_HEADER ? { authHeader: splitHeader(env.COMFYUI_AUTH_HEADER) } : {}),
				maxImageBytes: env.IMAGE_DOWNLOAD_MAX_BYTES,
				logger: createLogger(env.LOG_LEVEL),
			});
		case "replicate":
			return createReplicateProvider({
				apiToken: requireValue(env.REPLICATE_API_TOKEN, "REPLICATE_API_TOKEN", "replicate"),
				model: env.REPLICATE_MODEL,
				baseUrl: env.REPLICATE_BASE_URL,
				imagesPerPrediction: env.REPLICATE_IMAGES_PER_PREDICTION,
				...(env.REPLICATE_INPUT_JSON ? { extraInput: env.REPLICATE_INPUT_JSON } : {}),
				// Replicate stops a prediction nobody can use any more: past our own timeout.
				cancelAfterMs: env.GENERATION_TIMEOUT_MS,
			});
		case "openai":
			return createOpenAiProvider({
				apiKey: requireValue(env.OPENAI_API_KEY, "OPENAI_API_KEY", "openai"),
				baseUrl: env.OPENAI_BASE_URL,
				model: env.OPENAI_IMAGE_MODEL,
				quality: env.OPENAI_IMAGE_QUALITY,
				sizes: env.OPENAI_IMAGE_SIZES,
				// The one blocking call may take as long as the generation is allowed to.
				requestTimeoutMs: env.GENERATION_TIMEOUT_MS,
				maxImageBytes: env.IMAGE_DOWNLOAD_MAX_BYTES,
			});
		case "fal":
			return createFalProvider({
				apiKey: requireValue(env.FAL_KEY, "FAL_KEY", "fal"),
				model: env.FAL_MODEL,
				queueUrl: env.FAL_QUEUE_URL,
				ratioInput: env.FAL_RATIO_INPUT,
				imagesPerRequest: env.FAL_IMAGES_PER_REQUEST,
				...(env.FAL_INPUT_JSON ? { extraInput: env.FAL_INPUT_JSON } : {}),
			});
	}
}

function requireValue(value: string | undefined, variable: string, provider: string): string {
	if (!value) throw new Error(`${variable} is required when IMAGE_PROVIDER is ${provider}`);
	return value;
}

function readWorkflowFile(path: string): ReturnType<typeof parseWorkflowText> {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		throw new Error(`COMFYUI_WORKFLOW_FILE cannot be read: ${detail}`);
	}
	return parseWorkflowText(text, path);
}

function readBindings(env: Env): ComfyUiBindings {
	const read = (value: string, variable: string): InputRef => {
		const ref = parseInputRef(value);
		if (!ref) throw new Error(`${variable} must be <node id>.<input name>: ${value}`);
		return ref;
	};
	return {
		prompt: read(env.COMFYUI_PROMPT_INPUT, "COMFYUI_PROMPT_INPUT"),
		width: read(env.COMFYUI_WIDTH_INPUT, "COMFYUI_WIDTH_INPUT"),
		height: read(env.COMFYUI_HEIGHT_INPUT, "COMFYUI_HEIGHT_INPUT"),
		batch:
			env.COMFYUI_BATCH_INPUT === "none"
				? null
				: read(env.COMFYUI_BATCH_INPUT, "COMFYUI_BATCH_INPUT"),
		seed: read(env.COMFYUI_SEED_INPUT, "COMFYUI_SEED_INPUT"),
	};
}

function splitHeader(header: string): { name: string; value: string } {
	const separator = header.indexOf(":");
	return { name: header.slice(0, separator).trim(), value: header.slice(separator + 1).trim() };
}
