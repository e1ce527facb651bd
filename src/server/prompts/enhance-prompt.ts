import { randomUUID } from "node:crypto";
import { z } from "zod";
import { MAX_PROMPT_LENGTH } from "../../shared/core/constants";
import type { EnhancePromptRequest } from "../../shared/generations/prompt-enhance";
import { serverEnhanceLimit } from "../../shared/i18n/messages";
import { validatePrompt } from "../../shared/prompts/prompt";
import type { EnhancedPrompt } from "../../shared/prompts/prompt-tool-responses";
import type { Database } from "../db/database";
import { countInWindow } from "../db/rate-limit-windows";
import { AppError } from "../errors/app-error";
import type { Logger } from "../logging/logger";
import type { Viewer } from "../person/viewer";
import { describeUrl, parseBaseUrl, resolveBelow } from "../providers/shared/provider-urls";
import {
	createVendorClient,
	readErrorBody,
	type VendorRequestSettings,
} from "../providers/shared/vendor-request";
import { recordEnhancement } from "./enhancements-repository";

/** What Enhance asks the chat model for unless ENHANCE_INSTRUCTION says otherwise. */
export const DEFAULT_ENHANCE_INSTRUCTION = `You rewrite prompts for an image generator. Keep the person's subject and intent; add concrete detail about composition, lighting, style and mood. Answer with the rewritten prompt only, in one paragraph of at most ${MAX_PROMPT_LENGTH} characters, without quotes or explanations.`;

/** Added to the instruction when the person asks for the prompt in English. */
export const TRANSLATE_INSTRUCTION =
	"Write the rewritten prompt in English, translating it if needed.";

/** The operator's OpenAI-compatible chat endpoint (ENHANCE_*), and each person's hourly calls. */
export type EnhanceSettings = VendorRequestSettings & {
	baseUrl: string;
	apiKey: string;
	model: string;
	instruction: string;
	perHour: number;
};

export type EnhanceDeps = {
	database: Database;
	logger: Logger;
	/** Absent when the operator configured no endpoint: Enhance answers 404. */
	enhance: EnhanceSettings | undefined;
};

const ENHANCE_WINDOW_SECONDS = 3600;

/** The chat's answer (platform.openai.com/docs/api-reference/chat/object), what Enhance reads of it. */
const ChatCompletionSchema = z.object({
	choices: z.array(
		z.object({
			finish_reason: z.string().nullish(),
			message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }).nullish(),
		}),
	),
});

const ChatErrorSchema = z.object({
	error: z.object({ code: z.string().nullish(), message: z.string().nullish() }),
});

/** Error codes with which OpenAI and Azure OpenAI refuse a request's content. */
const REFUSAL_CODES = new Set(["content_filter", "content_policy_violation"]);

/**
 * A rewrite of the prompt by the operator's chat endpoint, counted against the person's hourly
 * limit and recorded for the Usage page. Nothing else is stored: the person reviews the proposal.
 */
export async function enhancePrompt(
	deps: EnhanceDeps,
	viewer: Viewer,
	request: EnhancePromptRequest,
): Promise<EnhancedPrompt> {
	const settings = deps.enhance;
	if (!settings) throw new AppError("ENHANCE_NOT_CONFIGURED");
	const { count, resetSeconds } = await countInWindow(
		deps.database.db,
		`enhance:${viewer.id}`,
		ENHANCE_WINDOW_SECONDS,
	);
	if (count > settings.perHour) {
		const minutes = Math.max(1, Math.ceil(resetSeconds / 60));
		throw new AppError(
			"RATE_LIMITED",
			(options) => serverEnhanceLimit({ limit: settings.perHour, count: minutes }, options),
			{ retryAfterSeconds: Math.max(1, resetSeconds) },
		);
	}
	await recordEnhancement(deps.database.db, { id: randomUUID(), user_id: viewer.id });
	const rewrite = await askChat(deps, settings, request);
	return { prompt: rewrite };
}

async function askChat(
	deps: EnhanceDeps,
	settings: EnhanceSettings,
	request: EnhancePromptRequest,
): Promise<string> {
	const baseUrl = parseBaseUrl(settings.baseUrl, "ENHANCE_BASE_URL");
	const url = resolveBelow(baseUrl, "chat/completions");
	const what = `Enhancing a prompt at ${describeUrl(url)}`;
	const send = createVendorClient(settings, {
		maxResponseBytes: 256 * 1024,
		credentials: {
			origin: baseUrl.origin,
			headers: { authorization: `Bearer ${settings.apiKey}` },
		},
	});
	const instruction = request.translate
		? `${settings.instruction}\n\n${TRANSLATE_INSTRUCTION}`
		: settings.instruction;
	let reply: Awaited<ReturnType<typeof send>>;
	try {
		reply = await send(what, {
			method: "POST",
			url,
			json: {
				model: settings.model,
				messages: [
					{ role: "system", content: instruction },
					{ role: "user", content: request.prompt },
				],
			},
		});
	} catch (error) {
		deps.logger.warn("enhancing a prompt failed", { error });
		throw new AppError("ENHANCE_FAILED", undefined, { cause: error });
	}
	if (!reply.ok) {
		const code = readErrorBody(reply, ChatErrorSchema)?.error.code;
		if (code && REFUSAL_CODES.has(code)) throw new AppError("ENHANCE_REFUSED");
		deps.logger.warn("enhancing a prompt failed", { what, status: reply.status, code });
		throw new AppError("ENHANCE_FAILED");
	}
	const parsed = reply.body.isJson ? ChatCompletionSchema.safeParse(reply.body.value) : undefined;
	if (!parsed?.success) {
		deps.logger.warn("enhancing a prompt failed", { what, problem: "an answer of another shape" });
		throw new AppError("ENHANCE_FAILED");
	}
	const choice = parsed.data.choices[0];
	if (choice?.finish_reason === "content_filter" || choice?.message?.refusal) {
		throw new AppError("ENHANCE_REFUSED");
	}
	const rewrite = readRewrite(choice?.message?.content ?? "");
	if (rewrite === undefined) {
		deps.logger.warn("enhancing a prompt failed", { what, problem: "no usable rewrite" });
		throw new AppError("ENHANCE_FAILED");
	}
	return rewrite;
}

/**
 * The chat's text as a prompt: quotes around it dropped, cut at a word to the prompt's length,
 * and held to the prompt rules; undefined when nothing usable is left.
 */
export function readRewrite(content: string): string | undefined {
	let text = content
		.trim()
		.replace(/^["'“”]+|["'“”]+$/g, "")
		.replace(/\s+/g, " ")
		.trim();
	if (text.length > MAX_PROMPT_LENGTH) {
		const cut = text.slice(0, MAX_PROMPT_LENGTH + 1);
		const lastSpace = cut.lastIndexOf(" ");
		text = (lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, MAX_PROMPT_LENGTH)).trim();
	}
	const check = validatePrompt(text);
	return check.ok ? check.prompt : undefined;
}
