import { randomBytes } from "node:crypto";
import type { UploadContentType } from "../../shared/image-input/image-input";
import { extensionOfContentType } from "../../shared/image-input/image-types";
import { AppError } from "../errors/app-error";
import type { InputImage } from "../providers/types";
import type { Storage } from "../storage/storage";
import type { UploadRow } from "./upload-repository";

/** Every upload lives under this folder, one folder per person: never served by a public URL. */
export const UPLOADS_FOLDER = "uploads/";

/** The person's folder of uploads (removed whole with their account). */
export function uploadFolder(userId: string): string {
	return `${UPLOADS_FOLDER}${userId}/`;
}

/** `uploads/<userId>/<uploadId>.<ext>` */
export function uploadKey(
	userId: string,
	uploadId: string,
	contentType: UploadContentType,
): string {
	return `${uploadFolder(userId)}${uploadId}.${extensionOfContentType(contentType)}`;
}

/**
 * A new upload's id: a version 7 UUID, whose first 48 bits are the time it was made. The object is
 * written before its row, so the sweep of objects no row names must leave young ones alone; the id
 * in the key tells their age without asking the storage.
 */
export function newUploadId(now: number = Date.now()): string {
	const bytes = randomBytes(16);
	bytes.writeUIntBE(now, 0, 6);
	bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
	bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
	const hex = bytes.toString("hex");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const V7_KEY_NAME =
	/^([0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\.[a-z]+$/;

/** The upload id and its making time of a key under uploads/, or undefined for any other name. */
export function readUploadKey(key: string): { id: string; madeAt: number } | undefined {
	const id = V7_KEY_NAME.exec(key.split("/").at(-1) ?? "")?.[1];
	if (id === undefined) return undefined;
	return { id, madeAt: Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16) };
}

/**
 * An upload's image as a provider is given it: the bytes stored (already checked, upright and
 * without metadata), with the type and size its row recorded. An upload whose image is gone
 * (removed as unused while it was being named) answers 404 like an upload that does not exist.
 */
export async function readUploadImage(storage: Storage, upload: UploadRow): Promise<InputImage> {
	const object = await storage.get(upload.storage_key);
	if (!object) throw new AppError("NOT_FOUND");
	return {
		data: object.data,
		contentType: upload.content_type,
		width: upload.width,
		height: upload.height,
	};
}
