import { type AspectRatio, nearestAspectRatio } from "../../../shared/aspect-ratios";
import type { CreateGenerationRequest } from "../../../shared/create-generation-request";
import { MAX_UPLOAD_PIXELS } from "../../../shared/image-input";
import {
	type ExpandFrame,
	expandFrame,
	expandSidesOf,
	type RegionAction,
} from "../../../shared/region-edit";
import { AppError } from "../../errors/app-error";
import { type NormalizedMask, normalizeMask } from "../../images/region-mask";
import type { Model, ModelCatalogue } from "../../models/model-catalogue";
import type { Viewer } from "../../person/viewer";
import { findOwnUpload, type UploadRow } from "../../uploads/upload-repository";
import { readUploadImage } from "../../uploads/upload-storage";
import type { GenerationDeps } from "../generation-deps";
import type { ReferenceSource } from "../run/reference-image";

// Edit region and Expand as a request asks for them (docs/decisions/033-region-edit.md): their
// fields checked together, the model that can do them, and the mask or frame the generation keeps.

function refuse(message: string): never {
	throw new AppError("VALIDATION_ERROR", message);
}

/** Which of `mask` and `expand` an action takes: each is refused where it means nothing. */
export function checkRegionFields(request: CreateGenerationRequest, action: string | null): void {
	if (request.mask !== undefined && action !== "edit-region") {
		refuse("mask is only taken by edit-region");
	}
	if (request.expand !== undefined && action !== "expand") refuse("expand is only taken by expand");
	if (action === "edit-region" && request.mask === undefined) {
		refuse(
			'mask is required for edit-region: { "uploadId" } of a PNG sent through POST /api/uploads',
		);
	}
	if (action === "expand" && request.expand === undefined) {
		refuse(
			'expand is required for expand: { "aspectRatio" } or { "left", "right", "top", "bottom" }',
		);
	}
	if (action === "edit-region" || action === "expand") {
		if (request.strength !== undefined) refuse(`strength is not taken by ${action}`);
		if (request.aspectRatio !== undefined) {
			refuse(
				action === "expand"
					? "aspectRatio is not taken by expand: name the new frame's in expand"
					: "aspectRatio is not taken by edit-region: the result keeps its image's size",
			);
		}
	}
}

/** The field that names the capability each action needs, as a refusal names it. */
const CAPABILITY_FIELD = { "edit-region": "mask", expand: "expand" } as const;

function canDo(model: Model, action: RegionAction): boolean {
	return action === "edit-region" ? model.mask : model.outpaint;
}

/**
 * The model a region action is made with: the one the request names (refused, naming the field,
 * when it cannot), else its parent's when it can, else the default's, else the first that can.
 */
export function chooseRegionModel(
	catalogue: ModelCatalogue,
	request: CreateGenerationRequest,
	source: ReferenceSource,
	action: RegionAction,
): Model {
	const field = CAPABILITY_FIELD[action];
	if (request.model !== undefined) {
		const model =
			catalogue.find(request.model) ?? refuse(`model "${request.model}" is not offered`);
		if (!canDo(model, action)) {
			refuse(
				action === "edit-region"
					? `mask is not taken by model "${model.id}": it cannot edit a region`
					: `expand is not taken by model "${model.id}": it cannot paint beyond the frame`,
			);
		}
		return model;
	}
	const parentModel =
		source.kind === "generation" ? catalogue.find(source.parent.model_id) : undefined;
	const candidates = [parentModel, catalogue.defaultModel(), ...catalogue.models];
	return (
		candidates.find((model): model is Model => model !== undefined && canDo(model, action)) ??
		refuse(`${field} is not taken by any model offered here`)
	);
}

/** The frame an expansion makes of its source, within the model's pixel limit. */
export function resolveExpandFrame(
	request: CreateGenerationRequest,
	source: ReferenceSource,
	model: Model,
): ExpandFrame {
	if (request.expand === undefined) return refuse("expand is required for expand");
	const size = { width: source.image.width, height: source.image.height };
	const maxPixels = model.provider.capabilities.maxRegionPixels ?? MAX_UPLOAD_PIXELS;
	return (
		expandFrame(size, expandSidesOf(size, request.expand), maxPixels) ??
		refuse(
			"aspectRatio" in request.expand
				? `expand adds nothing: the image is already ${request.expand.aspectRatio.slice("--ar ".length)}`
				: "expand adds nothing: give at least one side more than 0",
		)
	);
}

/** The ratio a region action's result is listed under: its image's own, or its new frame's. */
export function regionAspectRatio(
	source: ReferenceSource,
	frame: ExpandFrame | undefined,
): AspectRatio {
	if (frame) return nearestAspectRatio(frame.width, frame.height);
	if (source.kind === "generation") return source.parent.aspect_ratio;
	return nearestAspectRatio(source.image.width, source.image.height);
}

/** An `edit-region`'s mask, read and checked: the upload it came from and the one convention. */
export type RegionMask = { upload: UploadRow; mask: NormalizedMask };

/**
 * The mask a request names: one's own upload (another's is 404, like every id of theirs), a PNG
 * of the reference's pixel size that lets at least one pixel change; each failure a 400 naming
 * `mask`.
 */
export async function findRegionMask(
	deps: Pick<GenerationDeps, "database" | "storage">,
	viewer: Viewer,
	request: CreateGenerationRequest,
	source: ReferenceSource,
): Promise<RegionMask> {
	if (request.mask === undefined) return refuse("mask is required for edit-region");
	const upload = await findOwnUpload(deps.database.db, viewer.id, request.mask.uploadId);
	if (!upload) throw new AppError("NOT_FOUND");
	if (upload.content_type !== "image/png") {
		refuse(`mask must be a PNG image; this upload is ${upload.content_type}`);
	}
	const { width, height } = source.image;
	if (upload.width !== width || upload.height !== height) {
		refuse(
			`mask must be ${width} × ${height} pixels, the reference's size; this one is ${upload.width} × ${upload.height}`,
		);
	}
	const image = await readUploadImage(deps.storage, upload);
	const mask = await normalizeMask(image.data);
	if (mask.changedPixels === 0) {
		refuse("mask is empty: paint (white) where the image may change");
	}
	return { upload, mask };
}
