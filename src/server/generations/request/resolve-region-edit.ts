import { type AspectRatio, nearestAspectRatio } from "../../../shared/generations/aspect-ratios";
import type { CreateGenerationRequest } from "../../../shared/generations/create-generation-request";
import {
	type ExpandFrame,
	expandFrame,
	expandSidesOf,
	type RegionAction,
} from "../../../shared/generations/region-edit";
import {
	serverAspectRatioNotEditRegion,
	serverAspectRatioNotExpand,
	serverExpandAlready,
	serverExpandNoSide,
	serverExpandNotTakenByModel,
	serverExpandOnlyExpand,
	serverExpandRequired,
	serverExpandRequiredShape,
	serverFieldNoModel,
	serverMaskEmpty,
	serverMaskNotPng,
	serverMaskNotTakenByModel,
	serverMaskOnlyEditRegion,
	serverMaskRequired,
	serverMaskRequiredUpload,
	serverMaskWrongSize,
	serverModelNotOffered,
	serverStrengthNotTakenBy,
} from "../../../shared/i18n/messages";
import { MAX_UPLOAD_PIXELS } from "../../../shared/image-input/image-input";
import { AppError, type LocalizedMessage } from "../../errors/app-error";
import { type NormalizedMask, normalizeMask } from "../../images/region-mask";
import type { Model, ModelCatalogue } from "../../models/model-catalogue";
import type { Viewer } from "../../person/viewer";
import { findOwnUpload, type UploadRow } from "../../uploads/upload-repository";
import { readUploadImage } from "../../uploads/upload-storage";
import type { GenerationDeps } from "../generation-deps";
import type { ReferenceSource } from "../run/reference-image";

// Edit region and Expand as a request asks for them (docs/decisions/033-region-edit.md): their
// fields checked together, the model that can do them, and the mask or frame the generation keeps.

function refuse(message: LocalizedMessage): never {
	throw new AppError("VALIDATION_ERROR", message);
}

/** Which of `mask` and `expand` an action takes: each is refused where it means nothing. */
export function checkRegionFields(request: CreateGenerationRequest, action: string | null): void {
	if (request.mask !== undefined && action !== "edit-region") {
		refuse(serverMaskOnlyEditRegion);
	}
	if (request.expand !== undefined && action !== "expand") refuse(serverExpandOnlyExpand);
	if (action === "edit-region" && request.mask === undefined) {
		refuse(serverMaskRequiredUpload);
	}
	if (action === "expand" && request.expand === undefined) {
		refuse(serverExpandRequiredShape);
	}
	if (action === "edit-region" || action === "expand") {
		if (request.strength !== undefined) {
			refuse((options) => serverStrengthNotTakenBy({ action }, options));
		}
		if (request.aspectRatio !== undefined) {
			refuse(action === "expand" ? serverAspectRatioNotExpand : serverAspectRatioNotEditRegion);
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
		const named = request.model;
		const model =
			catalogue.find(named) ??
			refuse((options) => serverModelNotOffered({ model: named }, options));
		if (!canDo(model, action)) {
			const cannot =
				action === "edit-region" ? serverMaskNotTakenByModel : serverExpandNotTakenByModel;
			refuse((options) => cannot({ model: model.id }, options));
		}
		return model;
	}
	const parentModel =
		source.kind === "generation" ? catalogue.find(source.parent.model_id) : undefined;
	const candidates = [parentModel, catalogue.defaultModel(), ...catalogue.models];
	return (
		candidates.find((model): model is Model => model !== undefined && canDo(model, action)) ??
		refuse((options) => serverFieldNoModel({ field }, options))
	);
}

/** The frame an expansion makes of its source, within the model's pixel limit. */
export function resolveExpandFrame(
	request: CreateGenerationRequest,
	source: ReferenceSource,
	model: Model,
): ExpandFrame {
	const expand = request.expand;
	if (expand === undefined) return refuse(serverExpandRequired);
	const size = { width: source.image.width, height: source.image.height };
	const maxPixels = model.provider.capabilities.maxRegionPixels ?? MAX_UPLOAD_PIXELS;
	return (
		expandFrame(size, expandSidesOf(size, expand), maxPixels) ??
		refuse(
			"aspectRatio" in expand
				? (options) =>
						serverExpandAlready({ ratio: expand.aspectRatio.slice("--ar ".length) }, options)
				: serverExpandNoSide,
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
	if (request.mask === undefined) return refuse(serverMaskRequired);
	const upload = await findOwnUpload(deps.database.db, viewer.id, request.mask.uploadId);
	if (!upload) throw new AppError("NOT_FOUND");
	if (upload.content_type !== "image/png") {
		const type = upload.content_type;
		refuse((options) => serverMaskNotPng({ type }, options));
	}
	const { width, height } = source.image;
	if (upload.width !== width || upload.height !== height) {
		// Figures as text: the English is written without thousands separators.
		const sizes = {
			width: String(width),
			height: String(height),
			maskWidth: String(upload.width),
			maskHeight: String(upload.height),
		};
		refuse((options) => serverMaskWrongSize(sizes, options));
	}
	const image = await readUploadImage(deps.storage, upload);
	const mask = await normalizeMask(image.data);
	if (mask.changedPixels === 0) {
		refuse(serverMaskEmpty);
	}
	return { upload, mask };
}
