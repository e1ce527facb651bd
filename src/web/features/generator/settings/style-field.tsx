// Style: the operator's and the person's own templates (GET /api/styles), chosen for the next
// generation, with a short preview of what the chosen one adds; "Save as style" keeps the prompt
// box's text as a style of the person's own. Loaded with the generator's settings.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import {
	generatorCancel,
	generatorSave,
	generatorSaveAsStyle,
	generatorServerStyles,
	generatorStyle,
	generatorStyleHint,
	generatorStyleName,
	generatorStyleNone,
	generatorStyleNotSaved,
	generatorStyleSaved,
	generatorStyleSends,
	generatorStyleSendsLeavesOut,
	generatorYourStyles,
} from "../../../../shared/i18n/messages";
import {
	PROMPT_PLACEHOLDER,
	type PromptStyle,
	previewStyle,
} from "../../../../shared/prompts/prompt-tool-responses";
import { Button } from "../../../components/basics/button";
import {
	FIELD_MESSAGE_CLASS_NAME,
	LABEL_CLASS_NAME,
} from "../../../components/forms/field-classes";
import { ApiError } from "../../../lib/api/api-client";
import {
	createStyle,
	STYLES_QUERY_KEY,
	useStyles,
} from "../../../lib/generations/prompts-requests";
import { showToast } from "../../../lib/ui/toast";

type StyleFieldProps = {
	isSignedIn: boolean;
	styleId: string | null;
	onChange: (styleId: string | null) => void;
	/** The prompt box's text and the negative prompt, which "Save as style" keeps. */
	prompt: string;
	negativePrompt: string;
	message: string | null;
};

const SELECT_CLASS_NAME =
	"block h-11 w-full rounded-lg border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-accent-600 focus:outline-none sm:text-sm";

/** The template "Save as style" makes of a prompt: where a later prompt goes, then this one. */
export function toStyleTemplate(prompt: string): string {
	const text = prompt.trim();
	return text.includes(PROMPT_PLACEHOLDER) ? text : `${PROMPT_PLACEHOLDER}, ${text}`;
}

export function StyleField({
	isSignedIn,
	styleId,
	onChange,
	prompt,
	negativePrompt,
	message,
}: StyleFieldProps) {
	const selectId = useId();
	const previewId = useId();
	const nameId = useId();
	const queryClient = useQueryClient();
	const { data: styles } = useStyles(isSignedIn);
	const [isNaming, setIsNaming] = useState(false);
	const [name, setName] = useState("");
	const [isSaving, setIsSaving] = useState(false);
	const chosen = styles?.find((style) => style.id === styleId);

	// A style the person no longer has (deleted, or a recipe's from elsewhere) is not sent.
	useEffect(() => {
		if (styles && styleId && !chosen) onChange(null);
	}, [styles, styleId, chosen, onChange]);

	if (!isSignedIn) return null;
	const byScope = (scope: PromptStyle["scope"]) =>
		(styles ?? []).filter((style) => style.scope === scope);

	async function save() {
		const trimmed = name.trim();
		if (!trimmed || isSaving) return;
		setIsSaving(true);
		try {
			const saved = await createStyle({
				name: trimmed,
				prompt: toStyleTemplate(prompt),
				negativePrompt: negativePrompt.trim() || null,
			});
			await queryClient.invalidateQueries({ queryKey: STYLES_QUERY_KEY });
			onChange(saved.id);
			setIsNaming(false);
			setName("");
			void showToast("success", generatorStyleSaved({ name: saved.name }));
		} catch (error) {
			void showToast("error", error instanceof ApiError ? error.message : generatorStyleNotSaved());
		} finally {
			setIsSaving(false);
		}
	}

	return (
		<div>
			<label htmlFor={selectId} className={LABEL_CLASS_NAME}>
				{generatorStyle()}
			</label>
			<select
				id={selectId}
				name="style"
				value={chosen ? chosen.id : ""}
				onChange={(event) => onChange(event.target.value || null)}
				aria-describedby={previewId}
				aria-invalid={message ? true : undefined}
				className={SELECT_CLASS_NAME}
			>
				<option value="">{generatorStyleNone()}</option>
				{byScope("operator").length > 0 ? (
					<optgroup label={generatorServerStyles()}>
						{byScope("operator").map((style) => (
							<option key={style.id} value={style.id}>
								{style.name}
							</option>
						))}
					</optgroup>
				) : null}
				{byScope("personal").length > 0 ? (
					<optgroup label={generatorYourStyles()}>
						{byScope("personal").map((style) => (
							<option key={style.id} value={style.id}>
								{style.name}
							</option>
						))}
					</optgroup>
				) : null}
			</select>
			<p
				id={previewId}
				className={message ? FIELD_MESSAGE_CLASS_NAME : "mt-1.5 text-xs break-words text-slate-600"}
			>
				{message ??
					(chosen
						? chosen.negativePrompt
							? generatorStyleSendsLeavesOut({
									preview: previewStyle(chosen),
									negative: chosen.negativePrompt,
								})
							: generatorStyleSends({ preview: previewStyle(chosen) })
						: generatorStyleHint())}
			</p>
			{isNaming ? (
				<div className="mt-2 flex items-end gap-2">
					<div className="min-w-0 flex-1">
						<label htmlFor={nameId} className={LABEL_CLASS_NAME}>
							{generatorStyleName()}
						</label>
						<input
							id={nameId}
							value={name}
							maxLength={60}
							// biome-ignore lint/a11y/noAutofocus: the field the person just asked for.
							autoFocus
							onChange={(event) => setName(event.target.value)}
							onKeyDown={(event) => {
								// Enter saves the style, not the generator's form around it.
								if (event.key === "Enter") {
									event.preventDefault();
									void save();
								} else if (event.key === "Escape") {
									event.stopPropagation();
									setIsNaming(false);
								}
							}}
							className={SELECT_CLASS_NAME}
						/>
					</div>
					<Button size="lg" variant="secondary" isBusy={isSaving} onClick={() => void save()}>
						{generatorSave()}
					</Button>
					<Button size="lg" variant="ghost" onClick={() => setIsNaming(false)}>
						{generatorCancel()}
					</Button>
				</div>
			) : (
				<Button
					size="sm"
					variant="ghost"
					className="mt-1"
					disabled={prompt.trim().length === 0}
					onClick={() => setIsNaming(true)}
				>
					{generatorSaveAsStyle()}
				</Button>
			)}
		</div>
	);
}
