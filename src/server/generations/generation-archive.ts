import { PassThrough, Readable } from "node:stream";
import { ZipFile } from "yazl";
import type { GenerationRow } from "../db/schema";
import type { Storage } from "../storage/storage";

/** A small file written into the archive as it is, such as `account.json`. */
export type ArchiveFile = { name: string; content: string };

const EXTENSIONS: Record<string, string> = {
	"image/png": "png",
	"image/jpeg": "jpg",
	"image/webp": "webp",
	"image/gif": "gif",
	"image/avif": "avif",
};

/** The folder of one generation in the archive: its day and id, so folders sort by date. */
export function archiveFolderName(row: Pick<GenerationRow, "id" | "created_at">): string {
	return `generations/${row.created_at.toISOString().slice(0, 10)}_${row.id}`;
}

function imageFileName(index: number, key: string, contentType: string): string {
	const extension = EXTENSIONS[contentType] ?? key.split(".").at(-1) ?? "bin";
	return `image-${index + 1}.${extension}`;
}

/** What the archive says about one generation, beside its images. */
export function describeGeneration(row: GenerationRow) {
	return {
		id: row.id,
		prompt: row.prompt,
		aspectRatio: row.aspect_ratio,
		status: row.status,
		error: row.error,
		provider: row.provider,
		createdAt: row.created_at.toISOString(),
		completedAt: row.completed_at ? row.completed_at.toISOString() : null,
		images: row.images.map((image, index) => ({
			file: imageFileName(index, image.key, image.contentType),
			contentType: image.contentType,
			width: image.width,
			height: image.height,
		})),
	};
}

/**
 * Streams a ZIP of the given generations: per generation a folder with `metadata.json` and its
 * original images, plus `generations.json` listing them all and any `files` given. Images are read
 * from storage one at a time, as the reader asks for more, so the archive is never held in memory.
 * If reading an image fails, the stream errors instead of ending, so a download is never a
 * silently truncated file.
 */
export function createGenerationArchive(options: {
	generations: readonly GenerationRow[];
	storage: Storage;
	files?: readonly ArchiveFile[];
}): ReadableStream<Uint8Array> {
	const zip = new ZipFile();
	const output = new PassThrough();
	let hasFailed = false;
	const fail = (error: unknown) => {
		if (hasFailed) return;
		hasFailed = true;
		output.destroy(error instanceof Error ? error : new Error(String(error)));
	};
	zip.on("error", fail);
	zip.outputStream.on("error", fail);
	zip.outputStream.pipe(output);

	const addText = (name: string, content: string) => {
		zip.addBuffer(Buffer.from(content, "utf8"), name, { mtime: new Date() });
	};
	for (const file of options.files ?? []) addText(file.name, file.content);
	const described = options.generations.map(describeGeneration);
	addText("generations.json", `${JSON.stringify(described, null, 2)}\n`);

	options.generations.forEach((row, rowIndex) => {
		const folder = archiveFolderName(row);
		addText(`${folder}/metadata.json`, `${JSON.stringify(described[rowIndex], null, 2)}\n`);
		row.images.forEach((image, index) => {
			const name = `${folder}/${imageFileName(index, image.key, image.contentType)}`;
			// Images are compressed already; storing them saves the CPU and changes nothing in size.
			zip.addReadStreamLazy(name, { compress: false, mtime: row.created_at }, (callback) => {
				options.storage.get(image.key).then(
					(object) => {
						if (!object) {
							callback(
								new Error(`The image ${image.key} is missing from storage`),
								Readable.from([]),
							);
							return;
						}
						callback(null, Readable.from([Buffer.from(object.data)]));
					},
					(error: unknown) =>
						callback(error instanceof Error ? error : new Error(String(error)), Readable.from([])),
				);
			});
		});
	});
	zip.end();

	return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}
