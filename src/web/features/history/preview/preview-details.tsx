// The details the history's preview lists beside the image (image-preview-dialog.tsx): the prompt
// (and the original one Enhance rewrote), the date and time, the aspect ratio, the model (said
// when no longer offered), the seed, the negative prompt and quality where used, and the owner
// for the administrator.
import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	historyDetailAspectRatio,
	historyDetailCreated,
	historyDetailModel,
	historyDetailNegativePrompt,
	historyDetailOriginalPrompt,
	historyDetailOwner,
	historyDetailPrompt,
	historyDetailQuality,
	historyDetailSeed,
	modelNoLongerOffered,
} from "../../../../shared/i18n/messages";
import { formatDateTime } from "../../../lib/ui/date-format";
import { describeAspectRatio, describeQuality } from "../cards/history-format";

function Detail({ term, children }: { term: string; children: ReactNode }) {
	return (
		<div>
			<dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{term}</dt>
			<dd className="mt-1 text-sm text-slate-800">{children}</dd>
		</div>
	);
}

type PreviewDetailsProps = {
	generation: Generation;
	isOwnerShown: boolean;
	/** The generation's model is no longer offered: said beside its label. */
	isModelGone: boolean;
};

export function PreviewDetails({ generation, isOwnerShown, isModelGone }: PreviewDetailsProps) {
	return (
		<dl className="space-y-4">
			<Detail term={historyDetailPrompt()}>
				<Dialog.Description className="break-words whitespace-pre-wrap">
					{generation.prompt}
				</Dialog.Description>
			</Detail>
			{generation.originalPrompt ? (
				<Detail term={historyDetailOriginalPrompt()}>
					<span className="break-words whitespace-pre-wrap">{generation.originalPrompt}</span>
				</Detail>
			) : null}
			<Detail term={historyDetailCreated()}>
				<time dateTime={generation.created_at}>{formatDateTime(generation.created_at)}</time>
			</Detail>
			<Detail term={historyDetailAspectRatio()}>
				{describeAspectRatio(generation.aspect_ratio)}
			</Detail>
			<Detail term={historyDetailModel()}>
				{generation.model.label}
				{isModelGone ? <span className="text-slate-600"> · {modelNoLongerOffered()}</span> : null}
			</Detail>
			{generation.settings.seed !== null ? (
				<Detail term={historyDetailSeed()}>
					<span className="font-mono tabular-nums">{generation.settings.seed}</span>
				</Detail>
			) : null}
			{generation.settings.negativePrompt ? (
				<Detail term={historyDetailNegativePrompt()}>
					<span className="break-words whitespace-pre-wrap">
						{generation.settings.negativePrompt}
					</span>
				</Detail>
			) : null}
			{generation.settings.quality ? (
				<Detail term={historyDetailQuality()}>
					{describeQuality(generation.settings.quality)}
				</Detail>
			) : null}
			{isOwnerShown && generation.owner_email ? (
				<Detail term={historyDetailOwner()}>
					<span className="break-all">{generation.owner_email}</span>
				</Detail>
			) : null}
		</dl>
	);
}
