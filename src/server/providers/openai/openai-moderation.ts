import { z } from "zod";
import { describeUrl, parseBaseUrl, resolveBelow } from "../shared/provider-urls";
import {
	createVendorClient,
	parseReply,
	toHttpStatusError,
	type VendorRequestSettings,
} from "../shared/vendor-request";
import { OPENAI_DEFAULT_BASE_URL } from "./openai-config";

/** OpenAI's model that judges images as well as text. */
export const OPENAI_MODERATION_MODEL = "omni-moderation-latest";

const ModerationReplySchema = z.object({
	results: z.array(z.object({ flagged: z.boolean() })),
});

/** Says whether any of the images is flagged; throws a ProviderError when the service cannot say. */
export type CheckImages = (
	images: readonly { data: Uint8Array; contentType: string }[],
) => Promise<{
	isFlagged: boolean;
}>;

/**
 * OpenAI's moderation endpoint (`POST /moderations`, documented at
 * platform.openai.com/docs/api-reference/moderations) over images: each image goes as a data URL
 * in one `image_url` input, one request an image, as the endpoint takes one image a request.
 */
export function createOpenAiModeration(
	options: { apiKey: string; baseUrl?: string | undefined } & VendorRequestSettings,
): CheckImages {
	const baseUrl = parseBaseUrl(options.baseUrl ?? OPENAI_DEFAULT_BASE_URL, "OPENAI_BASE_URL");
	const send = createVendorClient(options, {
		maxResponseBytes: 256 * 1024,
		credentials: {
			origin: baseUrl.origin,
			headers: { authorization: `Bearer ${options.apiKey}` },
		},
	});
	const url = resolveBelow(baseUrl, "moderations");
	const what = `Checking images at ${describeUrl(url)}`;
	return async (images) => {
		for (const image of images) {
			const dataUrl = `data:${image.contentType};base64,${Buffer.from(image.data).toString("base64")}`;
			const reply = await send(what, {
				method: "POST",
				url,
				json: {
					model: OPENAI_MODERATION_MODEL,
					input: [{ type: "image_url", image_url: { url: dataUrl } }],
				},
			});
			if (!reply.ok) throw toHttpStatusError(what, reply, undefined, "start");
			const parsed = parseReply(what, reply, ModerationReplySchema, { retryable: true });
			if (parsed.results.some((result) => result.flagged)) return { isFlagged: true };
		}
		return { isFlagged: false };
	};
}
