import { randomBytes } from "node:crypto";
import { z } from "zod";
import { decodeDataUri, type FakeReply, jsonReply } from "./fake-server";

const CATEGORIES = [
	"harassment",
	"harassment/threatening",
	"hate",
	"hate/threatening",
	"illicit",
	"illicit/violent",
	"self-harm",
	"self-harm/intent",
	"self-harm/instructions",
	"sexual",
	"sexual/minors",
	"violence",
	"violence/graphic",
] as const;

/** The categories OpenAI's omni model judges images in; the others are judged in text only. */
const IMAGE_CATEGORIES = new Set([
	"self-harm",
	"self-harm/intent",
	"self-harm/instructions",
	"sexual",
	"violence",
	"violence/graphic",
]);

const ModerationRequestSchema = z.object({
	model: z.string().optional(),
	input: z.union([
		z.string(),
		z.array(z.string()),
		z.array(
			z.union([
				z.object({ type: z.literal("text"), text: z.string() }),
				z.object({ type: z.literal("image_url"), image_url: z.object({ url: z.string() }) }),
			]),
		),
	]),
});

/**
 * `POST /v1/moderations` as OpenAI documents it (platform.openai.com/docs/api-reference/moderations):
 * text and `image_url` inputs (a data URL here), one result for the request, `flagged` with the
 * categories, their scores and the input types each was judged on. `isFlagged` says whether the
 * images are flagged (as `sexual`); text is never flagged.
 */
export function answerModeration(body: unknown, isFlagged: boolean): FakeReply {
	const parsed = ModerationRequestSchema.safeParse(body);
	const error = (message: string) =>
		jsonReply(400, {
			error: { message, type: "invalid_request_error", param: "input", code: null },
		});
	if (!parsed.success) return error("Invalid value for 'input'.");
	const { input } = parsed.data;
	const images = Array.isArray(input)
		? input.flatMap((part) => (typeof part === "object" && part.type === "image_url" ? [part] : []))
		: [];
	if (images.length > 1) return error("Only one image may be sent in a request.");
	if (images.some((image) => !decodeDataUri(image.image_url.url))) {
		return error("Invalid image URL: expected a base64-encoded data URL of an image.");
	}
	const flaggedImage = isFlagged && images.length > 0;
	const categories = Object.fromEntries(
		CATEGORIES.map((category) => [category, flaggedImage && category === "sexual"]),
	);
	const scores = Object.fromEntries(
		CATEGORIES.map((category) => [category, flaggedImage && category === "sexual" ? 0.97 : 0.0004]),
	);
	const appliedTypes = Object.fromEntries(
		CATEGORIES.map((category) => [
			category,
			images.length > 0 && IMAGE_CATEGORIES.has(category) ? ["image"] : [],
		]),
	);
	return jsonReply(200, {
		id: `modr-${randomBytes(6).toString("hex")}`,
		model: parsed.data.model ?? "omni-moderation-latest",
		results: [
			{
				flagged: flaggedImage,
				categories,
				category_scores: scores,
				category_applied_input_types: appliedTypes,
			},
		],
	});
}
