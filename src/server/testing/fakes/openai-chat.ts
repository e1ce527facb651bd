import { randomBytes } from "node:crypto";
import { z } from "zod";
import { FAKE_REFUSED_WORD, type FakeReply, jsonReply } from "./fake-server";

/** How `POST /v1/chat/completions` answers: a rewrite, or one of the ways a chat model fails. */
export const FAKE_CHAT_ANSWERS = {
	rewrite: "the user message rewritten (a prompt holding the refused word: `content_filter`)",
	"content-filter": "200 whose choice ended with `finish_reason: content_filter`, no content",
	refusal: "200 whose message holds a `refusal` and no content",
	empty: "200 with no choices",
	"server-error": "500 `server_error`",
	hang: "never answers",
} as const;
export type FakeChatAnswer = keyof typeof FAKE_CHAT_ANSWERS;

/** What the fake adds to a prompt it rewrites. */
export const FAKE_REWRITE_SUFFIX = ", in golden hour light, highly detailed, 35 mm photograph";

/** What a rewrite asked to be in English starts with. */
export const FAKE_TRANSLATED_PREFIX = "In English: ";

const ChatRequestSchema = z.object({
	model: z.string().min(1),
	messages: z
		.array(
			z.object({
				role: z.enum(["system", "developer", "user", "assistant"]),
				content: z.string(),
			}),
		)
		.min(1),
	temperature: z.number().min(0).max(2).optional(),
	max_completion_tokens: z.number().int().positive().optional(),
});

function completion(model: string, choice: Record<string, unknown> | undefined): FakeReply {
	return jsonReply(200, {
		id: `chatcmpl-${randomBytes(8).toString("hex")}`,
		object: "chat.completion",
		created: Math.floor(Date.now() / 1000),
		model,
		choices: choice ? [{ index: 0, logprobs: null, ...choice }] : [],
		usage: { prompt_tokens: 42, completion_tokens: 24, total_tokens: 66 },
	});
}

/**
 * `POST /v1/chat/completions` as OpenAI documents it (platform.openai.com/docs/api-reference/chat):
 * `model` and `messages` checked, one choice whose `message.content` rewrites the last user
 * message (prefixed when a system message asks for English), or the failure `answer` names.
 */
export function answerChatCompletion(body: unknown, answer: FakeChatAnswer): FakeReply {
	const parsed = ChatRequestSchema.safeParse(body);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return jsonReply(400, {
			error: {
				message: `Invalid value for '${issue?.path.join(".") ?? "messages"}'.`,
				type: "invalid_request_error",
				param: issue?.path.join(".") ?? null,
				code: null,
			},
		});
	}
	const { model, messages } = parsed.data;
	const prompt = messages.findLast((message) => message.role === "user")?.content ?? "";
	switch (answer) {
		case "hang":
			return { kind: "hang" };
		case "server-error":
			return jsonReply(500, {
				error: {
					message: "The server had an error while processing your request.",
					type: "server_error",
					param: null,
					code: null,
				},
			});
		case "empty":
			return completion(model, undefined);
		case "refusal":
			return completion(model, {
				message: { role: "assistant", content: null, refusal: "I can't help with that." },
				finish_reason: "stop",
			});
		case "content-filter":
			return completion(model, {
				message: { role: "assistant", content: null, refusal: null },
				finish_reason: "content_filter",
			});
		case "rewrite": {
			if (prompt.toLowerCase().includes(FAKE_REFUSED_WORD)) {
				return completion(model, {
					message: { role: "assistant", content: null, refusal: null },
					finish_reason: "content_filter",
				});
			}
			const isEnglishAsked = messages.some(
				(message) => message.role === "system" && /english/i.test(message.content),
			);
			const content = `${isEnglishAsked ? FAKE_TRANSLATED_PREFIX : ""}${prompt}${FAKE_REWRITE_SUFFIX}`;
			return completion(model, {
				message: { role: "assistant", content, refusal: null },
				finish_reason: "stop",
			});
		}
	}
}
