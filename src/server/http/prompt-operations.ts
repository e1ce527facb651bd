import { CreateStyleRequestSchema, UpdateStyleRequestSchema } from "../../shared/prompt-styles";
import {
	PromptStyleSchema,
	PromptStylesSchema,
	PromptToolDoneSchema,
} from "../../shared/prompt-tool-responses";
import type { ApiOperation, Parameter } from "./api-operations";

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
 * which shape what the person generates, under `generate` (decision 034).
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
} as const satisfies Record<string, ApiOperation>;
