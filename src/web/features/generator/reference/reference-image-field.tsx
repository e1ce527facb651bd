// The generator's reference image: "Add reference image" (a file picker; a drop on the form does
// the same), the thumbnail, "Reference strength" (for a model that honours one; the others decide
// by themselves, and say so) and "Remove reference", for a model that takes an image; "This model
// does not take a reference image." for the others. Loaded with the settings
// (generation-controls.tsx).
import { useQuery } from "@tanstack/react-query";
import { Paperclip, X } from "lucide-react";
import { useId, useRef } from "react";
import type { PublicModel } from "../../../../shared/generations/models";
import {
	generatorAddReference,
	generatorNoImageInput,
	generatorNoReferenceStrength,
	generatorReferenceImage,
	generatorReferenceStrength,
	generatorReferenceStrengthHint,
	generatorRemoveReference,
	generatorUploading,
} from "../../../../shared/i18n/messages";
import {
	DEFAULT_REFERENCE_STRENGTH,
	type ReferenceInput,
} from "../../../../shared/image-input/image-input";
import { INPUT_IMAGE_ACCEPT } from "../../../../shared/image-input/image-types";
import { Button } from "../../../components/basics/button";
import { Spinner } from "../../../components/basics/spinner";
import { ImageActionButtons } from "../../../components/images/image-action-buttons";
import { fetchGeneration } from "../../../lib/generations/generations-requests";
import { isGenerationReference, NO_IMAGE_ACTIONS } from "../../../lib/generations/image-actions";
import { useImageActionChoices } from "../../../lib/generations/use-image-action-choices";
import { addReferenceFile } from "./add-reference-file";
import type { ReferenceImage } from "./reference-image";
import type { ReferenceImageControls } from "./use-reference-image";

const NOTE_CLASS_NAME = "text-sm text-slate-600";

/**
 * The thumbnail of a reference a link named (Edit in the history), read from its generation. An
 * image of a generation that is gone or not one's own shows none; the start says why.
 */
function useLinkedThumbnail(reference: ReferenceImage | null): string | undefined {
	const input = reference?.input;
	const linked =
		input && isGenerationReference(input) && reference?.thumbnailUrl === null ? input : null;
	const { data } = useQuery({
		queryKey: ["generations", "record", linked?.generationId],
		queryFn: ({ signal }) => fetchGeneration(linked?.generationId ?? "", signal),
		enabled: linked !== null,
		staleTime: 60_000,
	});
	return linked ? data?.images[linked.imageIndex]?.thumbnailUrl : undefined;
}

function StrengthSlider({
	strength,
	onChange,
}: {
	strength: number;
	onChange: (strength: number) => void;
}) {
	const sliderId = useId();
	const hintId = useId();
	const shown = strength.toFixed(2);
	return (
		<div className="min-w-0 flex-1">
			<div className="flex items-baseline justify-between gap-2">
				<label htmlFor={sliderId} className="text-sm font-medium text-slate-800">
					{generatorReferenceStrength()}
				</label>
				<output htmlFor={sliderId} className="text-sm text-slate-700 tabular-nums">
					{shown}
				</output>
			</div>
			<input
				id={sliderId}
				type="range"
				name="strength"
				min={0}
				max={1}
				step={0.05}
				value={strength}
				aria-valuetext={shown}
				aria-describedby={hintId}
				onChange={(event) => onChange(Number(event.target.value))}
				className="mt-1 block w-full cursor-pointer accent-accent-600"
			/>
			<p id={hintId} className="mt-0.5 text-xs text-slate-600">
				{generatorReferenceStrengthHint()}
			</p>
		</div>
	);
}

type ReferenceImageFieldProps = {
	model: PublicModel;
	reference: ReferenceImageControls;
};

/**
 * The reference image's row: "Add reference image", or the note that the model takes none, one
 * line high (as the settings' placeholder reserves) until a reference is added, which the person
 * does, so the form may grow then.
 */
export function ReferenceImageField(props: ReferenceImageFieldProps) {
	return (
		<div className="flex min-h-9 flex-col justify-center">
			<ReferenceImageRow {...props} />
		</div>
	);
}

function ReferenceImageRow({ model, reference }: ReferenceImageFieldProps) {
	const fileInputRef = useRef<HTMLInputElement>(null);
	const current = reference.reference;
	const linkedThumbnailUrl = useLinkedThumbnail(current);
	const thumbnailUrl = current?.thumbnailUrl ?? linkedThumbnailUrl;

	if (!model.imageInput && !current) {
		return <p className={NOTE_CLASS_NAME}>{generatorNoImageInput()}</p>;
	}

	return (
		<div className="space-y-3">
			{current ? (
				<div className="flex items-start gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset">
					<div className="size-12 shrink-0 overflow-hidden rounded-lg bg-slate-200">
						{thumbnailUrl ? (
							<img
								src={thumbnailUrl}
								alt={generatorReferenceImage()}
								className="size-full object-cover"
							/>
						) : null}
					</div>
					{model.imageInput && model.referenceStrength ? (
						<StrengthSlider
							strength={reference.strength ?? DEFAULT_REFERENCE_STRENGTH}
							onChange={reference.setStrength}
						/>
					) : (
						<p className={`${NOTE_CLASS_NAME} flex-1`}>
							{model.imageInput ? generatorNoReferenceStrength() : generatorNoImageInput()}
						</p>
					)}
					<Button variant="ghost" size="sm" onClick={reference.remove} className="-mt-1 -mr-2">
						<X aria-hidden="true" className="size-4" />
						{generatorRemoveReference()}
					</Button>
				</div>
			) : null}
			{current ? <ReferenceEditorLinks reference={current.input} modelId={model.id} /> : null}
			{model.imageInput ? (
				<div className="flex h-9 items-center gap-3">
					<button
						type="button"
						disabled={reference.isUploading}
						onClick={() => fileInputRef.current?.click()}
						className="-ml-1.5 inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-lg px-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50 disabled:cursor-default disabled:opacity-60"
					>
						<Paperclip aria-hidden="true" className="size-4" />
						{generatorAddReference()}
					</button>
					{reference.isUploading ? (
						<span className="inline-flex items-center gap-2 text-sm text-slate-600">
							<Spinner size="sm" />
							<span role="status">{generatorUploading()}</span>
						</span>
					) : null}
					<input
						ref={fileInputRef}
						type="file"
						accept={INPUT_IMAGE_ACCEPT}
						hidden
						aria-label={generatorAddReference()}
						onChange={(event) => {
							const file = event.target.files?.[0];
							// Cleared, so choosing the same file again adds it again.
							event.target.value = "";
							if (file) void addReferenceFile(reference, file);
						}}
					/>
				</div>
			) : null}
			{reference.error ? (
				<p role="alert" className="text-xs font-medium text-red-700">
					{reference.error}
				</p>
			) : null}
		</div>
	);
}

/** Edit region and Expand of the reference (an upload or a result), where some model can do them. */
function ReferenceEditorLinks({
	reference,
	modelId,
}: {
	reference: ReferenceInput;
	modelId: string;
}) {
	const choices = useImageActionChoices(modelId);
	if (!choices.canEditRegion && !choices.canExpand) return null;
	return (
		<ImageActionButtons
			choices={{
				...NO_IMAGE_ACTIONS,
				canEditRegion: choices.canEditRegion,
				canExpand: choices.canExpand,
			}}
			imageName={generatorReferenceImage()}
			onStart={() => {}}
			onEdit={() => {}}
			editorSource={reference}
		/>
	);
}
