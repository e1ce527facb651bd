// The editor's prompt and settings: the prompt filled from the source, the models that can do the
// chosen tool, the number of images and the seed as the generator offers them, and Generate.

import { type FormEvent, useId, useState } from "react";
import { MAX_PROMPT_LENGTH } from "../../../../shared/core/constants";
import { DEFAULT_IMAGE_COUNT } from "../../../../shared/generations/generation-settings";
import type { PublicModel } from "../../../../shared/generations/models";
import { editorImageCount, editorImages } from "../../../../shared/i18n/messages";
import { sanitizePrompt } from "../../../../shared/prompts/prompt";
import { Button } from "../../../components/basics/button";
import {
	FIELD_MESSAGE_CLASS_NAME,
	LABEL_CLASS_NAME,
} from "../../../components/forms/field-classes";
import { ModelSelect } from "../../../components/forms/model-select";
import { SeedField } from "../../../components/forms/seed-field";
import { Segments } from "../../../components/forms/segments";
import type { EditorTool } from "../../../lib/generations/image-actions";
import { EDITOR_TEXTS } from "../mask/editor-texts";
import type { EditSettings } from "./submit-edit";

const INPUT_CLASS_NAME =
	"block w-full rounded-lg border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-accent-600 focus:outline-none sm:text-sm";

/** The model the form starts with: the source's where it can do the tool, else the default, else the first. */
export function chooseStartModel(
	models: readonly PublicModel[],
	sourceModelId: string | null,
	defaultModelId: string | null,
): PublicModel | undefined {
	return (
		models.find(({ id }) => id === sourceModelId) ??
		models.find(({ id }) => id === defaultModelId) ??
		models[0]
	);
}

export function EditorForm({
	tool,
	models,
	initial,
	isSubmitting,
	message,
	onSubmit,
}: {
	tool: EditorTool;
	/** The models that can do `tool`. */
	models: PublicModel[];
	initial: { prompt: string; model: PublicModel; count: number | null; seed: number | null };
	isSubmitting: boolean;
	/** What went wrong with the last Generate, from the catalogue or the server. */
	message: string | null;
	onSubmit: (settings: EditSettings) => void;
}) {
	const promptId = useId();
	const promptHelpId = useId();
	const messageId = useId();
	const [prompt, setPrompt] = useState(initial.prompt);
	const [modelId, setModelId] = useState(initial.model.id);
	const model = models.find(({ id }) => id === modelId) ?? initial.model;
	const [count, setCount] = useState<number | null>(initial.count);
	// A count the model does not offer is its own default, as in the generator.
	const shownCount =
		count !== null && model.counts.includes(count)
			? count
			: model.counts.includes(DEFAULT_IMAGE_COUNT)
				? DEFAULT_IMAGE_COUNT
				: (model.counts[0] ?? null);
	const [seed, setSeed] = useState(initial.seed === null ? "" : String(initial.seed));

	const submit = (event: FormEvent) => {
		event.preventDefault();
		const seedNumber = seed.trim() === "" ? null : Number(seed);
		onSubmit({
			prompt,
			model: model.id,
			count: shownCount,
			seed: model.seed && seedNumber !== null && Number.isInteger(seedNumber) ? seedNumber : null,
		});
	};

	return (
		<form onSubmit={submit} noValidate className="flex flex-col gap-4">
			<div>
				<label htmlFor={promptId} className={LABEL_CLASS_NAME}>
					{EDITOR_TEXTS.prompt}
				</label>
				<textarea
					id={promptId}
					name="prompt"
					rows={4}
					value={prompt}
					maxLength={MAX_PROMPT_LENGTH}
					onChange={(event) => setPrompt(sanitizePrompt(event.target.value))}
					aria-describedby={promptHelpId}
					className={`${INPUT_CLASS_NAME} py-2`}
				/>
				<p id={promptHelpId} className="mt-1.5 text-xs text-slate-600">
					{EDITOR_TEXTS.promptHelp[tool]}
				</p>
			</div>
			{models.length > 1 ? (
				<ModelSelect models={models} value={model.id} onChange={setModelId} message={null} />
			) : null}
			{model.counts.length > 1 ? (
				<Segments
					label={editorImages()}
					name="count"
					options={model.counts}
					value={shownCount}
					onChange={setCount}
					describe={(option) => ({
						shown: String(option),
						spoken: editorImageCount({ count: option }),
					})}
					message={null}
				/>
			) : null}
			{model.seed ? (
				<SeedField
					value={seed}
					onChange={setSeed}
					message={null}
					inputClassName={INPUT_CLASS_NAME}
				/>
			) : null}
			{message ? (
				<p id={messageId} role="alert" className={FIELD_MESSAGE_CLASS_NAME}>
					{message}
				</p>
			) : null}
			<Button
				type="submit"
				disabled={isSubmitting}
				aria-describedby={message ? messageId : undefined}
			>
				{isSubmitting ? EDITOR_TEXTS.submitting : EDITOR_TEXTS.submit}
			</Button>
		</form>
	);
}
