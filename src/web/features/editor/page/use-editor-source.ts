// The image the editor opens, and what it starts from: for one of the person's generations, its
// image's size and display copy, its prompt, model, count and seed; for an upload, the upload and
// its size once loaded. With `reopen` (Use settings on an edit), that edit's prompt and settings,
// and its recorded mask or placement (its `region`).

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import type { GenerationRegion } from "../../../../shared/generations/region-edit";
import { fetchGeneration } from "../../../lib/generations/generations-requests";
import type { EditorLink } from "../../../lib/generations/image-actions";
import { readDisplaySource } from "../../../lib/generations/image-sources";
import { buildUploadImageUrl } from "../../../lib/generations/uploads-requests";
import type { ExpandPlacement } from "../tools/expand-geometry";

export type EditorSourceImage = {
	/** The picture shown (the display copy where there is one); the mask is at `width` × `height`. */
	url: string;
	width: number;
	height: number;
	/** What the form starts from: the source's, or the reopened edit's. */
	prompt: string;
	modelId: string | null;
	count: number | null;
	seed: number | null;
	/** A reopened edit's recorded mask, to paint again. */
	maskUrl: string | null;
	/** A reopened expansion's placement of the source in its frame. */
	placement: ExpandPlacement | null;
};

type SourceState =
	| { status: "loading" }
	| { status: "missing" }
	| { status: "ready"; source: EditorSourceImage; image: HTMLImageElement | null };

function useGeneration(id: string | null) {
	return useQuery({
		queryKey: ["editor-generation", id],
		queryFn: ({ signal }) => fetchGeneration(id ?? "", signal),
		enabled: id !== null,
		staleTime: Number.POSITIVE_INFINITY,
	});
}

/**
 * What the form starts from. A new edit keeps the source's prompt and model, the count and seed
 * left as the generator leaves them (its default count, a random seed); a reopened one keeps all.
 */
function recipeOf(generation: Generation | undefined, isReopened: boolean) {
	if (!generation) return null;
	return {
		prompt: generation.prompt,
		modelId: generation.model.id,
		count: isReopened ? generation.settings.count : null,
		seed: isReopened ? generation.settings.seed : null,
	};
}

export function useEditorSource(link: EditorLink): SourceState {
	const generationId = "generationId" in link.source ? link.source.generationId : null;
	const uploadId = "uploadId" in link.source ? link.source.uploadId : null;
	const generation = useGeneration(generationId);
	const reopened = useGeneration(link.reopen);
	const loaded = useLoadedImage(
		generationId
			? (imageOf(generation.data, link)?.url ?? null)
			: uploadId
				? buildUploadImageUrl(uploadId)
				: null,
	);

	if (generation.isError || loaded.status === "failed") return { status: "missing" };
	const recipe = recipeOf(reopened.data, true) ?? recipeOf(generation.data, false);
	const recorded = {
		maskUrl: reopened.data?.region?.maskUrl ?? null,
		placement: placementOf(reopened.data?.region?.frame ?? null),
	};
	if (generationId) {
		if (!generation.data || (link.reopen && reopened.isPending)) return { status: "loading" };
		const image = imageOf(generation.data, link);
		if (!image) return { status: "missing" };
		return {
			status: "ready",
			source: {
				url: image.url,
				width: image.width,
				height: image.height,
				prompt: recipe?.prompt ?? "",
				modelId: recipe?.modelId ?? null,
				count: recipe?.count ?? null,
				seed: recipe?.seed ?? null,
				...recorded,
			},
			image: loaded.status === "loaded" ? loaded.image : null,
		};
	}
	// An upload's size is known once its image has loaded.
	if (loaded.status !== "loaded" || (link.reopen && reopened.isPending))
		return { status: "loading" };
	return {
		status: "ready",
		source: {
			url: loaded.image.src,
			width: loaded.image.naturalWidth,
			height: loaded.image.naturalHeight,
			prompt: recipe?.prompt ?? "",
			modelId: recipe?.modelId ?? null,
			count: recipe?.count ?? null,
			seed: recipe?.seed ?? null,
			...recorded,
		},
		image: loaded.image,
	};
}

/** Where an expansion placed its source, as the room it added on each side. */
function placementOf(frame: GenerationRegion["frame"]): ExpandPlacement | null {
	if (!frame) return null;
	const right = frame.width - frame.left - frame.sourceWidth;
	const bottom = frame.height - frame.top - frame.sourceHeight;
	return {
		left: frame.left / frame.sourceWidth,
		right: right / frame.sourceWidth,
		top: frame.top / frame.sourceHeight,
		bottom: bottom / frame.sourceHeight,
	};
}

function imageOf(generation: Generation | undefined, link: EditorLink) {
	if (!generation || !("imageIndex" in link.source)) return null;
	const image = generation.images[link.source.imageIndex];
	if (!image) return null;
	return { url: readDisplaySource(image).url, width: image.width, height: image.height };
}

type LoadedImage =
	| { status: "loading" }
	| { status: "failed" }
	| { status: "loaded"; image: HTMLImageElement };

function useLoadedImage(url: string | null): LoadedImage {
	const [state, setState] = useState<LoadedImage>({ status: "loading" });
	useEffect(() => {
		if (!url) return;
		setState({ status: "loading" });
		const image = new Image();
		image.decoding = "async";
		image.onload = () => setState({ status: "loaded", image });
		image.onerror = () => setState({ status: "failed" });
		image.src = url;
		return () => {
			image.onload = null;
			image.onerror = null;
		};
	}, [url]);
	return state;
}
