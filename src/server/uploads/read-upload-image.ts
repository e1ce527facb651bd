import type { InputImage } from "../providers/types";
import type { Storage } from "../storage/storage";
import type { UploadRow } from "./upload-repository";

/**
 * An upload's bytes, as a generation starts from them: the stored copy (already checked by content
 * and stripped of its metadata when it was uploaded) with what its row says it is. Throws when the
 * object is gone.
 */
export async function readUploadImage(storage: Storage, upload: UploadRow): Promise<InputImage> {
	const object = await storage.get(upload.storage_key);
	if (!object) throw new Error(`The upload ${upload.id} has no stored object`);
	return {
		data: object.data,
		contentType: upload.content_type,
		width: upload.width,
		height: upload.height,
	};
}
