// An image's family in a preview: "Made from" (the generation it came from, its thumbnail opening
// that generation's preview; "The original was deleted" once it is gone) and "Made from this" (the
// generations made from the image shown, not from its siblings). Read when the preview opens, for
// the image it shows.
import { useQuery } from "@tanstack/react-query";
import { type Generation, isInProgress } from "../../../shared/generations/generation-responses";
import {
	historyFamilyFailed,
	historyOpenChild,
	historyOpenOriginal,
	imageMadeFrom,
	imageMadeFromThis,
	imageMadeFromUpload,
	imageOriginalDeleted,
	imageOriginalInTrash,
	imageUploadGone,
} from "../../../shared/i18n/messages";
import { ACTION_LABELS, type GenerationParent } from "../../../shared/image-input/image-input";
import {
	FAMILY_QUERY_PREFIX,
	fetchGenerationFamily,
} from "../../lib/generations/generations-requests";
import { Spinner } from "../basics/spinner";
import { Thumbnail } from "./thumbnail";

/**
 * The family's cache key: one per image of a generation, read again when a preview opens on it
 * later. `["generation-family", id]` names every image's.
 */

type FamilyPanelProps = {
	/** The generation shown; `parent` and `childrenCount` absent where its record was not read. */
	generation: {
		id: string;
		parent?: GenerationParent | null;
		childrenCount?: number;
	};
	/** The image shown (counted from 0): "Made from this" lists what was made from it. */
	imageIndex: number;
	/** Opens the preview of a generation of the family, on the image given. */
	onOpen: (generation: Generation, imageIndex: number) => void;
};

const HEADING_CLASS_NAME = "text-xs font-semibold tracking-wide text-slate-500 uppercase";
const THUMBNAIL_BUTTON_CLASS_NAME =
	"block size-12 cursor-pointer overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-accent-600";

/** Whether there is a family to read: a parent that still exists, or children (or a server that does not say). */
function hasFamilyToRead(generation: FamilyPanelProps["generation"]): boolean {
	const parent = generation.parent;
	const hasParent = parent != null && "generationId" in parent && parent.exists;
	return hasParent || generation.childrenCount !== 0;
}

function FamilyThumbnail({
	generation,
	imageIndex,
	label,
	onOpen,
}: {
	generation: Generation;
	imageIndex: number;
	label: string;
	onOpen: FamilyPanelProps["onOpen"];
}) {
	const image = generation.images[imageIndex] ?? generation.images[0];
	if (!image) {
		// Still being made, or failed: shown, not opened.
		return (
			<span
				title={label}
				className="flex size-12 items-center justify-center rounded-lg bg-slate-100 text-center text-xs text-slate-600 ring-1 ring-slate-200"
			>
				{isInProgress(generation.status) ? (
					<Spinner size="sm" label={label} />
				) : (
					historyFamilyFailed()
				)}
			</span>
		);
	}
	return (
		<button
			type="button"
			aria-label={label}
			title={label}
			onClick={() => onOpen(generation, generation.images[imageIndex] ? imageIndex : 0)}
			className={THUMBNAIL_BUTTON_CLASS_NAME}
		>
			<Thumbnail image={image} className="size-full object-cover" />
		</button>
	);
}

function describeAction(parent: GenerationParent | null | undefined): string {
	return parent ? ACTION_LABELS[parent.action]() : "";
}

/**
 * "Made from" for the generation a preview shows and "Made from this" for the image it shows;
 * nothing when they have no family.
 */
export function FamilyPanel({ generation, imageIndex, onOpen }: FamilyPanelProps) {
	const { parent } = generation;
	const isToRead = hasFamilyToRead(generation);
	const { data: family } = useQuery({
		queryKey: [...FAMILY_QUERY_PREFIX, generation.id, imageIndex],
		queryFn: ({ signal }) => fetchGenerationFamily(generation.id, imageIndex, signal),
		enabled: isToRead,
		staleTime: 10_000,
		// Moving to another image keeps the parent's part shown while that image's children load.
		placeholderData: (previous) => (previous ? { ...previous, children: [] } : undefined),
	});
	const children = family?.children ?? [];

	let madeFrom = null;
	if (parent && "upload" in parent) {
		madeFrom = (
			<p className="text-sm text-slate-700">
				{parent.uploadId ? imageMadeFromUpload() : imageUploadGone()}
			</p>
		);
	} else if (parent && !parent.exists) {
		madeFrom = (
			<p className="text-sm text-slate-700">
				{parent.inTrash ? imageOriginalInTrash() : imageOriginalDeleted()}
			</p>
		);
	} else if (parent && family?.parent) {
		madeFrom = (
			<div className="flex items-center gap-3">
				<FamilyThumbnail
					generation={family.parent}
					imageIndex={parent.imageIndex}
					label={historyOpenOriginal({ prompt: family.parent.prompt })}
					onOpen={onOpen}
				/>
				<span className="text-sm text-slate-700">{ACTION_LABELS[parent.action]()}</span>
			</div>
		);
	} else if (parent) {
		madeFrom = <Spinner size="sm" />;
	}

	if (!madeFrom && children.length === 0) return null;
	return (
		<div className="space-y-4">
			{madeFrom ? (
				<section aria-label={imageMadeFrom()} className="space-y-2">
					<h3 className={HEADING_CLASS_NAME}>{imageMadeFrom()}</h3>
					{madeFrom}
				</section>
			) : null}
			{children.length > 0 ? (
				<section aria-label={imageMadeFromThis()} className="space-y-2">
					<h3 className={HEADING_CLASS_NAME}>{imageMadeFromThis()}</h3>
					<ul className="flex flex-wrap gap-2">
						{children.map((child) => (
							<li key={child.id}>
								<FamilyThumbnail
									generation={child}
									imageIndex={0}
									label={historyOpenChild({
										action: describeAction(child.parent),
										prompt: child.prompt,
									})}
									onOpen={onOpen}
								/>
							</li>
						))}
					</ul>
				</section>
			) : null}
		</div>
	);
}
