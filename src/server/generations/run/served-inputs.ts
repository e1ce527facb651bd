import { extensionOfContentType } from "../../../shared/image-input/image-types";
import type { ImageInstruction, InputImage } from "../../providers/types";
import type { SignedUrls } from "../../storage/signed-urls";
import type { Storage } from "../../storage/storage";

// The images a job starts with, served to a service that fetches them by URL (an `http` entry's
// `imageUrls`; docs/decisions/033-region-edit.md): stored in the run's folder, which the sweep
// keeps while the run holds the generation, each given a short-lived signed URL.

const INPUT_FILE_PREFIX = "input-";

function inputKey(folder: string, name: "image" | "mask", image: InputImage): string {
	return `${folder}${INPUT_FILE_PREFIX}${name}.${extensionOfContentType(image.contentType) ?? "png"}`;
}

/** The instruction with each of its images stored under `folder` and given a signed `url`. */
export async function serveInputImages(
	deps: { storage: Storage; signedUrls: SignedUrls },
	folder: string,
	instruction: ImageInstruction,
): Promise<ImageInstruction> {
	const serve = async (name: "image" | "mask", image: InputImage): Promise<InputImage> => {
		const key = inputKey(folder, name, image);
		await deps.storage.put(key, image.data, image.contentType);
		return { ...image, url: await deps.signedUrls.urlFor(key) };
	};
	if (instruction.kind !== "region") {
		return { ...instruction, image: await serve("image", instruction.image) };
	}
	const [image, mask] = await Promise.all([
		serve("image", instruction.image),
		serve("mask", instruction.mask),
	]);
	return { ...instruction, image, mask };
}

/** Removes the served images once the job has ended: nothing fetches them any more. */
export async function removeInputImages(storage: Storage, folder: string): Promise<void> {
	const keys: string[] = [];
	for await (const page of storage.listKeys(folder)) {
		keys.push(...page.filter((key) => key.slice(folder.length).startsWith(INPUT_FILE_PREFIX)));
	}
	if (keys.length > 0) await storage.delete(keys);
}
