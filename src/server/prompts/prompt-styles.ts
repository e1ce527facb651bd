import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { GenerationSettings } from "../../shared/generations/generation-responses";
import { serverStyleLimit, sharedStyleId } from "../../shared/i18n/messages";
import { stripAspectRatioFlag } from "../../shared/prompts/prompt";
import {
	applyStyle,
	type CreateStyleRequest,
	MAX_PERSONAL_STYLES,
	type UpdateStyleRequest,
} from "../../shared/prompts/prompt-styles";
import type { PromptStyle } from "../../shared/prompts/prompt-tool-responses";
import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import type { Viewer } from "../person/viewer";
import {
	countPersonalStyles,
	deletePersonalStyle,
	findPersonalStyle,
	insertPersonalStyle,
	listPersonalStyles,
	type PersonalStyleRow,
	updatePersonalStyle,
} from "./styles-repository";

/** What the style verbs need: the database and the operator's styles (STYLES_FILE). */
export type StyleDeps = {
	database: Database;
	operatorStyles: readonly PromptStyle[];
};

const PersonalStyleIdSchema = z.uuid();

function presentPersonalStyle(row: PersonalStyleRow): PromptStyle {
	return {
		id: row.id,
		name: row.name,
		prompt: row.prompt,
		negativePrompt: row.negative_prompt,
		scope: "personal",
	};
}

/** The styles a person may choose: the operator's, then their own, by name. */
export async function listStyles(deps: StyleDeps, viewer: Viewer): Promise<PromptStyle[]> {
	const personal = await listPersonalStyles(deps.database.db, viewer.id);
	return [...deps.operatorStyles, ...personal.map(presentPersonalStyle)];
}

/**
 * A style by id, as a generation uses it: the operator's, or the person's own. Anything else
 * (someone else's style among them) is a 400 naming the field: the generation's request is wrong.
 */
export async function findStyle(deps: StyleDeps, viewer: Viewer, id: string): Promise<PromptStyle> {
	const operator = deps.operatorStyles.find((style) => style.id === id);
	if (operator) return operator;
	const row = PersonalStyleIdSchema.safeParse(id).success
		? await findPersonalStyle(deps.database.db, viewer.id, id)
		: undefined;
	if (!row) throw new AppError("VALIDATION_ERROR", sharedStyleId);
	return presentPersonalStyle(row);
}

export async function createStyle(
	deps: StyleDeps,
	viewer: Viewer,
	request: CreateStyleRequest,
): Promise<PromptStyle> {
	const count = await countPersonalStyles(deps.database.db, viewer.id);
	if (count >= MAX_PERSONAL_STYLES) {
		throw new AppError("VALIDATION_ERROR", (options) =>
			serverStyleLimit({ limit: MAX_PERSONAL_STYLES }, options),
		);
	}
	const row = await insertPersonalStyle(deps.database.db, {
		id: randomUUID(),
		user_id: viewer.id,
		name: request.name,
		prompt: request.prompt,
		negative_prompt: request.negativePrompt ?? null,
	});
	return presentPersonalStyle(row);
}

/** Renames or rewrites one of the person's own styles; the operator's and others' are 404. */
export async function updateStyle(
	deps: StyleDeps,
	viewer: Viewer,
	id: string,
	request: UpdateStyleRequest,
): Promise<PromptStyle> {
	if (!PersonalStyleIdSchema.safeParse(id).success) throw new AppError("NOT_FOUND");
	const row = await updatePersonalStyle(deps.database.db, viewer.id, id, {
		...(request.name !== undefined ? { name: request.name } : {}),
		...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
		...("negativePrompt" in request ? { negative_prompt: request.negativePrompt ?? null } : {}),
	});
	if (!row) throw new AppError("NOT_FOUND");
	return presentPersonalStyle(row);
}

/** Deletes one of the person's own styles; generations made with it keep its name. */
export async function deleteStyle(deps: StyleDeps, viewer: Viewer, id: string): Promise<void> {
	if (!PersonalStyleIdSchema.safeParse(id).success) throw new AppError("NOT_FOUND");
	if (!(await deletePersonalStyle(deps.database.db, viewer.id, id))) {
		throw new AppError("NOT_FOUND");
	}
}

/** A generation's style columns, as create-generation.ts stores them. */
export type GenerationStyle = {
	style_id: string;
	style_name: string;
	styled_prompt: string;
	styled_negative_prompt: string | null;
};

/**
 * The style of a generation made from another's image (a variation, an upscale, an edit) that names
 * none of its own: the source's. Made from the source's prompt and negative prompt, it keeps what the
 * source's style made of them, as the source asked its provider; with a prompt or negative prompt
 * of its own, the same style is applied to them, unless the style is gone (a personal style deleted
 * since), when the generation has no style.
 */
export async function keepSourceStyle(
	deps: StyleDeps,
	viewer: Viewer,
	source: { [Column in keyof GenerationStyle]: string | null },
	generation: {
		isSourcePrompt: boolean;
		prompt: string;
		settings: GenerationSettings;
		takesNegativePrompt: boolean;
	},
): Promise<GenerationStyle | undefined> {
	if (source.style_id === null) return undefined;
	if (generation.isSourcePrompt && source.style_name !== null && source.styled_prompt !== null) {
		return {
			style_id: source.style_id,
			style_name: source.style_name,
			styled_prompt: source.styled_prompt,
			styled_negative_prompt: generation.takesNegativePrompt ? source.styled_negative_prompt : null,
		};
	}
	try {
		return await styleGeneration(deps, viewer, source.style_id, generation);
	} catch (error) {
		if (error instanceof AppError && error.code === "VALIDATION_ERROR") return undefined;
		throw error;
	}
}

/**
 * A generation's style columns: the style's id and name now, and what it makes of the prompt (its
 * `--ar` flag taken out first) and of the negative prompt, which only a model that takes one gets.
 */
export async function styleGeneration(
	deps: StyleDeps,
	viewer: Viewer,
	styleId: string,
	generation: { prompt: string; settings: GenerationSettings; takesNegativePrompt: boolean },
): Promise<GenerationStyle> {
	const style = await findStyle(deps, viewer, styleId);
	const applied = applyStyle(
		style,
		stripAspectRatioFlag(generation.prompt),
		generation.settings.negativePrompt,
	);
	return {
		style_id: style.id,
		style_name: style.name,
		styled_prompt: applied.prompt,
		styled_negative_prompt: generation.takesNegativePrompt ? applied.negativePrompt : null,
	};
}
