import sharp from "sharp";
import type { GenerationReference } from "../../../shared/generations/create-generation-request";
import { GENERATION_MESSAGES } from "../../../shared/generations/generation-flow";
import { GenerationIdSchema } from "../../../shared/generations/generations";
import {
	serverReferenceIndexRange,
	serverReferenceNotCompleted,
	serverReferenceNotStored,
} from "../../../shared/i18n/messages";
import type { UploadContentType } from "../../../shared/image-input/image-input";
import {
	extensionOfContentType,
	IMAGE_TYPES,
	isInputContentType,
} from "../../../shared/image-input/image-types";
import type { GenerationRow, ReferenceImage } from "../../db/schema";
import { AppError, type LocalizedMessage } from "../../errors/app-error";
import type { Viewer } from "../../person/viewer";
import { type InputImage, ProviderError } from "../../providers/types";
import type { Storage } from "../../storage/storage";
import { findOwnUpload, type UploadRow } from "../../uploads/upload-repository";
import { readUploadImage } from "../../uploads/upload-storage";
import type { GenerationDeps } from "../generation-deps";
import { findGenerationById } from "../generation-repository";
import { generationFolder } from "./store-images";

/**
 * The image a new generation starts from, read once at its creation: one image of one of the
 * person's generations (its stored original) or one of their uploads.
 */
export type ReferenceSource =
	| { kind: "generation"; parent: GenerationRow; imageIndex: number; image: InputImage }
	| { kind: "upload"; upload: UploadRow; image: InputImage };

function refuseReference(message: LocalizedMessage): never {
	throw new AppError("VALIDATION_ERROR", message);
}

/**
 * The image a request names as its reference. Only the person's own images may be named, the
 * administrator's included: another person's generation or upload is answered 404 like every
 * other id of theirs. An image that does not exist in a generation of theirs, or a generation
 * not completed, is a bad `reference` (400).
 */
export async function findReferenceSource(
	deps: Pick<GenerationDeps, "database" | "storage">,
	viewer: Viewer,
	reference: GenerationReference,
): Promise<ReferenceSource> {
	const db = deps.database.db;
	if ("uploadId" in reference) {
		const upload = await findOwnUpload(db, viewer.id, reference.uploadId);
		if (!upload) throw new AppError("NOT_FOUND");
		return { kind: "upload", upload, image: await readUploadImage(deps.storage, upload) };
	}
	if (!GenerationIdSchema.safeParse(reference.generationId).success) {
		throw new AppError("NOT_FOUND");
	}
	const parent = await findGenerationById(db, reference.generationId);
	// One in the Trash is gone from everything but the Trash.
	if (!parent || parent.user_id !== viewer.id || parent.deleted_at !== null) {
		throw new AppError("NOT_FOUND");
	}
	if (parent.status !== "completed") {
		refuseReference(serverReferenceNotCompleted);
	}
	const stored = parent.images[reference.imageIndex];
	if (!stored) {
		const last = String(parent.images.length - 1);
		refuseReference((options) => serverReferenceIndexRange({ last }, options));
	}
	const object = await deps.storage.get(stored.key);
	if (!object) refuseReference(serverReferenceNotStored);
	return {
		kind: "generation",
		parent,
		imageIndex: reference.imageIndex,
		image: await toInputImage(object.data, object.contentType, stored),
	};
}

/**
 * A stored original as an input image. Providers may have made GIF or AVIF originals, which no
 * image service is sure to take: those are given as PNG.
 */
async function toInputImage(
	data: Uint8Array,
	contentType: string,
	size: { width: number; height: number },
): Promise<InputImage> {
	if (isInputContentType(contentType)) {
		return {
			data,
			contentType,
			width: size.width,
			height: size.height,
		};
	}
	const png = await sharp(data).png().toBuffer({ resolveWithObject: true });
	return {
		data: png.data,
		contentType: IMAGE_TYPES.png.contentType,
		width: png.info.width,
		height: png.info.height,
	};
}

/** Where a generation keeps its own copy of the image it starts from: in its own folder. */
export function referenceKeyFor(generationId: string, contentType: UploadContentType): string {
	return `${generationFolder(generationId)}reference.${extensionOfContentType(contentType)}`;
}

/**
 * Copies the starting image into the new generation's folder, so the generation runs and stays
 * whole whatever becomes of its parent or its upload; answers what the row records.
 */
export async function storeReferenceCopy(
	storage: Storage,
	generationId: string,
	image: InputImage,
): Promise<ReferenceImage> {
	const key = referenceKeyFor(generationId, image.contentType);
	await storage.put(key, image.data, image.contentType);
	return { key, contentType: image.contentType, width: image.width, height: image.height };
}

/**
 * A generation's copy of its starting image, as its run gives it to the provider. Its absence is
 * no state a retry fixes: the generation fails.
 */
export async function loadReferenceImage(
	storage: Storage,
	reference: ReferenceImage,
): Promise<InputImage> {
	const object = await storage.get(reference.key);
	if (!object) {
		throw new ProviderError(`The reference image ${reference.key} is not stored`, {
			retryable: false,
			userMessage: GENERATION_MESSAGES.failed,
		});
	}
	return {
		data: object.data,
		contentType: reference.contentType,
		width: reference.width,
		height: reference.height,
	};
}
