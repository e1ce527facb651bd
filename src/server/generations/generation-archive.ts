import { PassThrough, Readable } from "node:stream";
import { ZipFile } from "yazl";
import type { GenerationRow, StoredImage } from "../db/schema";
import type { Storage } from "../storage/storage";

/** A small file written into the archive as it is, such as `account.json`. */
export type ArchiveFile = { name: string; content: string };

/** Where each generation's files go in an archive. */
export type ArchiveLayout = {
	/** Each generation's folder ("" for the archive's root), one per row, in order, all different. */
	folderNames(rows: readonly GenerationRow[]): string[];
	/** The name of the file describing a generation, in its folder. */
	metadataFile: string;
	/** The name of one image, in its generation's folder. */
	imageFile(row: GenerationRow, index: number, extension: string): string;
	/** A file at the root listing every generation, if any. */
	indexFile?: string;
};

const EXTENSIONS: Record<string, string> = {
	"image/png": "png",
	"image/jpeg": "jpg",
	"image/webp": "webp",
	"image/gif": "gif",
	"image/avif": "avif",
};

/** The file extension of a stored image, from its type (or, failing that, its key). */
export function imageExtension(image: Pick<StoredImage, "key" | "contentType">): string {
	return EXTENSIONS[image.contentType] ?? image.key.split(".").at(-1) ?? "bin";
}

/** The folder of one generation in the archive: its day and id, so folders sort by date. */
export function archiveFolderName(row: Pick<GenerationRow, "id" | "created_at">): string {
	return `generations/${row.created_at.toISOString().slice(0, 10)}_${row.id}`;
}

/** The account export's layout: `generations/<day>_<id>/metadata.json`, `image-1.png`, ... */
export const EXPORT_LAYOUT: ArchiveLayout = {
	folderNames: (rows) => rows.map(archiveFolderName),
	metadataFile: "metadata.json",
	imageFile: (_row, index, extension) => `image-${index + 1}.${extension}`,
	indexFile: "generations.json",
};

/** What the archive says about one generation, beside its images. */
export function describeGeneration(row: GenerationRow, layout: ArchiveLayout = EXPORT_LAYOUT) {
	return {
		id: row.id,
		prompt: row.prompt,
		aspectRatio: row.aspect_ratio,
		status: row.status,
		error: row.error,
		provider: row.provider,
		favorite: row.is_favorite,
		createdAt: row.created_at.toISOString(),
		completedAt: row.completed_at ? row.completed_at.toISOString() : null,
		images: row.images.map((image, index) => ({
			file: layout.imageFile(row, index, imageExtension(image)),
			contentType: image.contentType,
			width: image.width,
			height: image.height,
		})),
	};
}

function inFolder(folder: string, name: string): string {
	return folder ? `${folder}/${name}` : name;
}

/**
 * Streams a ZIP of the given generations: per generation a folder (as the layout says; by default
 * `generations/<day>_<id>/`) with its metadata and its original images, plus the layout's index
 * file and any `files` given. Images are read from storage one at a time, as the reader asks for
 * more, so the archive is never held in memory. If reading an image fails, the stream errors
 * instead of ending, so a download is never a silently truncated file.
 */
export function createGenerationArchive(options: {
	generations: readonly GenerationRow[];
	storage: Storage;
	files?: readonly ArchiveFile[];
	layout?: ArchiveLayout;
}): ReadableStream<Uint8Array> {
	const layout = options.layout ?? EXPORT_LAYOUT;
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
	const described = options.generations.map((row) => describeGeneration(row, layout));
	if (layout.indexFile) addText(layout.indexFile, `${JSON.stringify(described, null, 2)}\n`);

	const folders = layout.folderNames(options.generations);
	options.generations.forEach((row, rowIndex) => {
		const folder = folders[rowIndex] ?? row.id;
		const metadata = `${JSON.stringify(described[rowIndex], null, 2)}\n`;
		addText(inFolder(folder, layout.metadataFile), metadata);
		row.images.forEach((image, index) => {
			const name = inFolder(folder, layout.imageFile(row, index, imageExtension(image)));
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
						const { data } = object;
						callback(
							null,
							Readable.from([Buffer.from(data.buffer, data.byteOffset, data.byteLength)]),
						);
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
