import sharp from "sharp";
import { GENERATION_MESSAGES } from "../../../shared/generations/generation-flow";
import type { ExpandFrame } from "../../../shared/generations/region-edit";
import type { GenerationRow, ReferenceImage } from "../../db/schema";
import { runImageWork } from "../../images/image-work";
import {
	compositeRegion,
	expandCanvas,
	expandMask,
	type NormalizedMask,
} from "../../images/region-mask";
import { type ImageInstruction, type InputImage, ProviderError } from "../../providers/types";
import type { Storage } from "../../storage/storage";
import { generationFolder } from "./store-images";

// A region edit's own files and what its run makes of them (docs/decisions/033-region-edit.md):
// the mask kept in the generation's folder beside its reference copy, the image and mask the
// provider is given, and the composite that keeps every pixel outside the mask.

/** Where an `edit-region` keeps its mask: in its own folder, beside its reference copy. */
export function maskKeyFor(generationId: string): string {
	return `${generationFolder(generationId)}mask.png`;
}

/** Copies a region edit's mask into its folder at creation; answers what the row records. */
export async function storeMaskCopy(
	storage: Storage,
	generationId: string,
	mask: NormalizedMask,
): Promise<ReferenceImage> {
	const key = maskKeyFor(generationId);
	await storage.put(key, mask.png, "image/png");
	return { key, contentType: "image/png", width: mask.width, height: mask.height };
}

/** The objects a generation keeps from its creation, which no run wrote: its reference and mask. */
export function keptObjectKeys(row: GenerationRow): string[] {
	return [row.reference_image?.key, row.region_mask?.key].filter(
		(key): key is string => key !== undefined,
	);
}

function asPng(data: Uint8Array, width: number, height: number): InputImage {
	return { data, contentType: "image/png", width, height };
}

/**
 * What a region edit's provider is given: for `edit-region` its reference (as PNG) and its mask;
 * for `expand` the reference in its new frame, the new area painted with its edges, and the mask
 * of the new area. Undefined for any other generation.
 */
export async function loadRegionInstruction(
	storage: Storage,
	row: GenerationRow,
	reference: InputImage,
): Promise<Extract<ImageInstruction, { kind: "region" }> | undefined> {
	if (row.action === "expand" && row.expand_frame) {
		const frame: ExpandFrame = row.expand_frame;
		const [canvas, mask] = await Promise.all([
			expandCanvas(reference.data, frame),
			expandMask(frame),
		]);
		return {
			kind: "region",
			image: asPng(canvas, frame.width, frame.height),
			mask: asPng(mask, frame.width, frame.height),
		};
	}
	if (row.action !== "edit-region" || !row.region_mask) return undefined;
	const stored = await storage.get(row.region_mask.key);
	if (!stored) {
		throw new ProviderError(`The mask ${row.region_mask.key} is not stored`, {
			retryable: false,
			userMessage: GENERATION_MESSAGES.failed,
		});
	}
	const image =
		reference.contentType === "image/png"
			? reference
			: asPng(
					await runImageWork(() => sharp(reference.data).png().toBuffer()),
					reference.width,
					reference.height,
				);
	return {
		kind: "region",
		image,
		mask: asPng(stored.data, row.region_mask.width, row.region_mask.height),
	};
}

/**
 * One result of a region edit as it is stored: laid over the image the provider was given
 * through the mask (compositeRegion), so every pixel outside it is the source's.
 */
export async function keepUnmaskedPixels(
	result: Uint8Array,
	region: Extract<ImageInstruction, { kind: "region" }>,
): Promise<Uint8Array> {
	try {
		return await compositeRegion(result, region.image.data, region.mask.data);
	} catch (error) {
		throw new ProviderError("The provider returned data that is not an image", {
			retryable: false,
			cause: error,
		});
	}
}
