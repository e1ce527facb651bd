// The actions on one result image (Vary (subtle), Vary (strong), Upscale, Edit, and the editor's
// Edit region and Expand), as buttons, for the generator's results and both previews; the
// history's card menu lists the same choices.
// Where the model that will upscale only resamples, a note says so, and Upscale is described by it.

import { Brush, Expand, Maximize2, Shuffle, SquarePen, WandSparkles } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import {
	editorTitleExpand,
	editorTitleRegion,
	imageActions,
	imageUpscaleResamples,
} from "../../../shared/i18n/messages";
import { ACTION_LABELS } from "../../../shared/image-input/image-input";
import {
	buildEditorLink,
	type EditorSource,
	type ImageActionChoices,
	type ImmediateAction,
} from "../../lib/generations/image-actions";
import { Button, getButtonClassName } from "../basics/button";

const EDITOR_LINK_CLASS_NAME = getButtonClassName({ variant: "secondary", size: "sm" });

/** Upscale's label: "Upscale" where one factor is offered, "Upscale 2×" and "Upscale 4×" where several. */
export function describeUpscale(factor: number, factors: readonly number[]): string {
	return factors.length > 1 ? `${ACTION_LABELS.upscale()} ${factor}×` : ACTION_LABELS.upscale();
}

/** Whether any of the actions is offered. */
export function hasImageActions(choices: ImageActionChoices): boolean {
	return (
		choices.canVary ||
		choices.canEdit ||
		choices.canEditRegion ||
		choices.canExpand ||
		choices.upscaleFactors.length > 0
	);
}

type ImageActionButtonsProps = {
	choices: ImageActionChoices;
	/** Which image they act on, for screen readers: "image 2 of 4". */
	imageName: string;
	onStart: (action: ImmediateAction, factor?: number) => void;
	onEdit: () => void;
	/** The image as the editor opens it (Edit region, Expand); without it they are not offered. */
	editorSource?: EditorSource;
	/** Called as the editor opens, for a dialog to close itself. */
	onOpenEditor?: () => void;
	/** While something runs, nothing new starts (the generator follows one generation at a time). */
	isDisabled?: boolean;
};

/** The buttons of the actions the image's model offers; nothing when it offers none. */
export function ImageActionButtons({
	choices,
	imageName,
	onStart,
	onEdit,
	editorSource,
	onOpenEditor,
	isDisabled = false,
}: ImageActionButtonsProps) {
	const noteId = useId();
	if (!hasImageActions(choices)) return null;
	const { upscaleFactors, resampledFactors } = choices;
	return (
		<fieldset
			aria-label={`${imageActions()}: ${imageName}`}
			className="m-0 flex min-w-0 flex-wrap gap-2 border-0 p-0"
		>
			{choices.canVary ? (
				<>
					<Button
						variant="secondary"
						size="sm"
						disabled={isDisabled}
						onClick={() => onStart("vary-subtle")}
					>
						<Shuffle aria-hidden="true" className="size-4" />
						{ACTION_LABELS["vary-subtle"]()}
					</Button>
					<Button
						variant="secondary"
						size="sm"
						disabled={isDisabled}
						onClick={() => onStart("vary-strong")}
					>
						<WandSparkles aria-hidden="true" className="size-4" />
						{ACTION_LABELS["vary-strong"]()}
					</Button>
				</>
			) : null}
			{upscaleFactors.map((factor) => (
				<Button
					key={factor}
					variant="secondary"
					size="sm"
					disabled={isDisabled}
					onClick={() => onStart("upscale", factor)}
					{...(resampledFactors.includes(factor)
						? { "aria-describedby": noteId, title: imageUpscaleResamples() }
						: {})}
				>
					<Maximize2 aria-hidden="true" className="size-4" />
					{describeUpscale(factor, upscaleFactors)}
				</Button>
			))}
			{choices.canEdit ? (
				<Button variant="secondary" size="sm" disabled={isDisabled} onClick={onEdit}>
					<SquarePen aria-hidden="true" className="size-4" />
					{ACTION_LABELS.edit()}
				</Button>
			) : null}
			{editorSource && choices.canEditRegion && !isDisabled ? (
				<Link
					to={buildEditorLink(editorSource, "region")}
					onClick={onOpenEditor}
					className={EDITOR_LINK_CLASS_NAME}
				>
					<Brush aria-hidden="true" className="size-4" />
					{editorTitleRegion()}
				</Link>
			) : null}
			{editorSource && choices.canExpand && !isDisabled ? (
				<Link
					to={buildEditorLink(editorSource, "expand")}
					onClick={onOpenEditor}
					className={EDITOR_LINK_CLASS_NAME}
				>
					<Expand aria-hidden="true" className="size-4" />
					{editorTitleExpand()}
				</Link>
			) : null}
			{resampledFactors.length > 0 ? (
				<p id={noteId} className="m-0 w-full text-xs text-slate-600">
					{imageUpscaleResamples()}
				</p>
			) : null}
		</fieldset>
	);
}
