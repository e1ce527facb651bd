import { API_TOKEN_SCOPES } from "../../shared/account/api-tokens";
import { ModelsResponseSchema } from "../../shared/generations/models";
import type { ApiOperation } from "../http/api-operations";

/**
 * The public API's models route, which generations/request/generation-routes.ts takes its access
 * from.
 */
export const MODEL_OPERATIONS = {
	listModels: {
		id: "listModels",
		method: "get",
		path: "/api/models",
		summary: "The models offered",
		description:
			"Anyone may call it; with a token or session, `preferredModelId` is the model of the caller's latest generation. What each model does with an image: `imageInput` (Vary and Edit), `referenceStrength` (whether it honours a start's `strength`; false where the model decides by itself how far to move from the image, as OpenAI's edits do, and a `strength` sent to it answers 400), `upscale` (its factors) and `upscaleResamples` (its upscale only resamples the image, as the offline engine's Lanczos does: larger, with no added detail); `mask` (Edit region: `action: \"edit-region\"`) and `outpaint` (Expand: `action: \"expand\"`).",
		tag: "Models",
		access: { scopes: API_TOKEN_SCOPES, isOpen: true },
		success: {
			status: 200,
			answer: {
				description: "The models and the default one.",
				schema: ModelsResponseSchema,
				example: {
					models: [
						{
							id: "local",
							label: "Offline engine",
							description:
								"Generative art drawn on this server, offline and free. Upscale resamples (Lanczos): the image gets larger but gains no detail.",
							pricePerImage: null,
							ratios: ["--ar 1:1", "--ar 3:2", "--ar 16:9"],
							counts: [1, 2, 3, 4],
							seed: true,
							negativePrompt: true,
							qualities: [],
							textToImage: true,
							imageInput: true,
							referenceStrength: true,
							upscale: [2, 4],
							upscaleResamples: true,
							mask: true,
							outpaint: true,
						},
						{
							id: "gpt-image",
							label: "GPT image",
							description: null,
							pricePerImage: 0.04,
							ratios: ["--ar 1:1", "--ar 3:2", "--ar 2:3"],
							counts: [1, 2, 3, 4],
							seed: false,
							negativePrompt: false,
							qualities: ["low", "medium", "high"],
							textToImage: true,
							imageInput: true,
							referenceStrength: false,
							upscale: [],
							upscaleResamples: false,
							mask: true,
							outpaint: true,
						},
					],
					defaultModelId: "local",
					preferredModelId: null,
				},
			},
		},
	},
} as const satisfies Record<string, ApiOperation>;
