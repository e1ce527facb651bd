import { EnhancePromptRequestSchema } from "../../shared/generations/prompt-enhance";
import {
	CreateStyleRequestSchema,
	UpdateStyleRequestSchema,
} from "../../shared/prompts/prompt-styles";
import {
	EnhancedPromptSchema,
	MAX_RECENT_PROMPTS,
	PromptStyleSchema,
	PromptStylesSchema,
	PromptToolDoneSchema,
	RecentPromptsSchema,
	RemovedRecentPromptsSchema,
} from "../../shared/prompts/prompt-tool-responses";
import {
	RecentPromptsQuerySchema,
	RemoveRecentPromptsRequestSchema,
} from "../../shared/prompts/recent-prompts";
import type { ApiOperation, Parameter } from "../http/api-operations";

const STYLE_ID = "0b8f9e0c-5f4e-4d7a-9c39-2d1a51a3c6e7";

const STYLE_ID_PARAMETER: Parameter = {
	name: "id",
	description: "A personal style's id.",
	example: STYLE_ID,
};

const PERSONAL_STYLE_EXAMPLE = {
	id: STYLE_ID,
	name: "Watercolour",
	prompt: "{prompt}, soft watercolour on rough paper",
	negativePrompt: "photo",
	scope: "personal",
} as const;

/**
 * The prompt tools' routes (prompts/): styles, whose reading is under `read` and whose changes,
 * which shape what the person generates, under `generate`; the last prompts, read under `read`
 * and forgotten under `delete` (decision 034); Enhance's rewrite, which costs the operator a call
 * to their chat endpoint, under `generate` with a verified address, as starting a generation is
 * (decision 039).
 */
export const PROMPT_OPERATIONS = {
	listStyles: {
		id: "listStyles",
		method: "get",
		path: "/api/styles",
		summary: "The styles one may choose",
		description:
			"The operator's styles (`scope: \"operator\"`, from the server's STYLES_FILE), then your own (`personal`), each by name. A style's `prompt` holds `{prompt}`, where a generation's prompt goes; its `negativePrompt` is added to the generation's own. Name a style's `id` as a generation's `style`.",
		tag: "Prompts",
		access: { scopes: ["read"] },
		success: {
			status: 200,
			answer: {
				description: "The styles.",
				schema: PromptStylesSchema,
				example: {
					items: [
						{
							id: "cinematic",
							name: "Cinematic",
							prompt: "{prompt}, cinematic lighting, 35 mm film",
							negativePrompt: "cartoon",
							scope: "operator",
						},
						PERSONAL_STYLE_EXAMPLE,
					],
				},
			},
		},
	},
	createStyle: {
		id: "createStyle",
		method: "post",
		path: "/api/styles",
		summary: "Save a style of your own",
		description:
			"`prompt` must contain `{prompt}`. A person keeps at most 100 styles. A field out of range answers 400 naming it.",
		tag: "Prompts",
		access: { scopes: ["generate"] },
		body: {
			schema: CreateStyleRequestSchema,
			example: {
				name: "Watercolour",
				prompt: "{prompt}, soft watercolour on rough paper",
				negativePrompt: "photo",
			},
		},
		success: {
			status: 201,
			answer: { description: "Saved.", schema: PromptStyleSchema, example: PERSONAL_STYLE_EXAMPLE },
		},
		errors: [400],
	},
	updateStyle: {
		id: "updateStyle",
		method: "patch",
		path: "/api/styles/{id}",
		summary: "Rename or rewrite a style of your own",
		description:
			"Any of `name`, `prompt` and `negativePrompt` (null removes it). The operator's styles and other people's answer 404. Generations made with the style keep the name and text they were made with.",
		tag: "Prompts",
		access: { scopes: ["generate"] },
		pathParameters: [STYLE_ID_PARAMETER],
		body: { schema: UpdateStyleRequestSchema, example: { name: "Soft watercolour" } },
		success: {
			status: 200,
			answer: {
				description: "The style as saved.",
				schema: PromptStyleSchema,
				example: { ...PERSONAL_STYLE_EXAMPLE, name: "Soft watercolour" },
			},
		},
		errors: [400, 404],
	},
	deleteStyle: {
		id: "deleteStyle",
		method: "delete",
		path: "/api/styles/{id}",
		summary: "Delete a style of your own",
		description:
			"The operator's styles and other people's answer 404. Generations made with it keep its name.",
		tag: "Prompts",
		access: { scopes: ["generate"] },
		pathParameters: [STYLE_ID_PARAMETER],
		success: {
			status: 200,
			answer: {
				description: "Deleted.",
				schema: PromptToolDoneSchema,
				example: { success: true },
			},
		},
		errors: [404],
	},
	listRecentPrompts: {
		id: "listRecentPrompts",
		method: "get",
		path: "/api/prompts/recent",
		summary: "Your last prompts",
		description: `The last ${MAX_RECENT_PROMPTS} distinct prompts you started a generation with (as typed; a variation's and an upscale's are their parent's), newest first; \`q\` keeps those holding it, any case. They follow you from device to device.`,
		tag: "Prompts",
		access: { scopes: ["read"] },
		query: RecentPromptsQuerySchema,
		success: {
			status: 200,
			answer: {
				description: "The prompts.",
				schema: RecentPromptsSchema,
				example: {
					items: [
						{ prompt: "A lighthouse at dusk --ar 3:2", lastUsedAt: "2026-01-15T09:30:00.000Z" },
						{ prompt: "A red fox in snow", lastUsedAt: "2026-01-14T18:02:00.000Z" },
					],
				},
			},
		},
		errors: [400],
	},
	removeRecentPrompts: {
		id: "removeRecentPrompts",
		method: "post",
		path: "/api/prompts/recent/remove",
		summary: "Forget one or all of your last prompts",
		description:
			"`{ prompt }` forgets that prompt (exactly as listed), `{ all: true }` all of them; the generations made with them stay.",
		tag: "Prompts",
		access: { scopes: ["delete"] },
		body: { schema: RemoveRecentPromptsRequestSchema, example: { prompt: "A red fox in snow" } },
		success: {
			status: 200,
			answer: {
				description: "How many were forgotten.",
				schema: RemovedRecentPromptsSchema,
				example: { success: true, removed: 1 },
			},
		},
		errors: [400],
	},
	enhancePrompt: {
		id: "enhancePrompt",
		method: "post",
		path: "/api/prompts/enhance",
		summary: "Propose a rewrite of a prompt",
		description:
			"The operator's chat model rewrites the prompt (with `translate: true`, also in English) and the rewrite is answered for you to review: nothing is stored, and no generation uses it until you send it. 404 when the server has no Enhance endpoint configured; 429 past your hourly limit, with Retry-After; 502 when the endpoint fails or does not answer in time; 422 when it refuses the prompt.",
		tag: "Prompts",
		access: { scopes: ["generate"], needsVerifiedEmail: true },
		body: {
			schema: EnhancePromptRequestSchema,
			example: { prompt: "un phare au crépuscule", translate: true },
		},
		success: {
			status: 200,
			answer: {
				description: "The proposed rewrite.",
				schema: EnhancedPromptSchema,
				example: {
					prompt:
						"A lighthouse at dusk on a rocky coast, warm light in its lantern against a violet sky, long exposure, calm sea",
				},
			},
		},
		errors: [400, 404, 422, 502],
	},
} as const satisfies Record<string, ApiOperation>;
