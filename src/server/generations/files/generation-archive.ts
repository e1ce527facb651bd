import { extensionOfContentType } from "../../../shared/image-input/image-types";
import type { GenerationRow, StoredImage } from "../../db/schema";
import type { Storage } from "../../storage/storage";
import { settingsOf } from "../generation-input";
import { withRecipe } from "./generation-recipe";
import { writeZip, type ZipEntry } from "./zip-writer";

/** A small file written into the archive as it is, such as `account.json`. */
type ArchiveFile = { name: string; content: string };

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
	/**
	 * Whether each image carries its generation's recipe (generation-recipe.ts), as a downloaded
	 * original does. The account export leaves it out: it gives back the stored files exactly.
	 */
	writesRecipes?: boolean;
	/** The name of a region edit's mask in its folder, if the archive carries masks. */
	maskFile?: string;
};

/** The file extension of a stored image, from its type (or, failing that, its key). */
export function imageExtension(image: Pick<StoredImage, "key" | "contentType">): string {
	return extensionOfContentType(image.contentType) ?? image.key.split(".").at(-1) ?? "bin";
}

/** The folder of one generation in the archive: its day and id, so folders sort by date. */
function archiveFolderName(row: Pick<GenerationRow, "id" | "created_at">): string {
	return `generations/${row.created_at.toISOString().slice(0, 10)}_${row.id}`;
}

/** The account export's layout: `generations/<day>_<id>/metadata.json`, `image-1.png`, ... */
const EXPORT_LAYOUT: ArchiveLayout = {
	folderNames: (rows) => rows.map(archiveFolderName),
	metadataFile: "metadata.json",
	imageFile: (_row, index, extension) => `image-${index + 1}.${extension}`,
	indexFile: "generations.json",
	maskFile: "mask.png",
};

/** What the archive says about one generation, beside its images. */
function describeGeneration(row: GenerationRow, layout: ArchiveLayout = EXPORT_LAYOUT) {
	return {
		id: row.id,
		prompt: row.prompt,
		aspectRatio: row.aspect_ratio,
		status: row.status,
		error: row.error,
		provider: row.provider,
		model: { id: row.model_id, label: row.model_label },
		settings: settingsOf(row),
		favorite: row.is_favorite,
		createdAt: row.created_at.toISOString(),
		completedAt: row.completed_at ? row.completed_at.toISOString() : null,
		images: row.images.map((image, index) => ({
			file: layout.imageFile(row, index, imageExtension(image)),
			contentType: image.contentType,
			width: image.width,
			height: image.height,
		})),
		...describeRegion(row, layout),
	};
}

/** A region edit's action, its mask's file and an expansion's frame, where it has them. */
function describeRegion(row: GenerationRow, layout: ArchiveLayout) {
	if (row.action !== "edit-region" && row.action !== "expand") return {};
	return {
		action: row.action,
		...(row.region_mask && layout.maskFile ? { mask: layout.maskFile } : {}),
		...(row.expand_frame ? { expandFrame: row.expand_frame } : {}),
	};
}

function inFolder(folder: string, name: string): string {
	return folder ? `${folder}/${name}` : name;
}

/**
 * How many files are read ahead of the one being written. Two reads waiting side by side kept the
 * ZIP about half as fast again as one under load (bench/README.md, archive-speed); four were slower.
 */
const READ_AHEAD = 2;

/** One file of the archive, read only when the archive gets to it. */
type PendingEntry = Omit<ZipEntry, "data"> & { read(): Promise<Buffer> };

/**
 * Streams a ZIP of the given generations: per generation a folder (as the layout says; by default
 * `generations/<day>_<id>/`) with its metadata and its original images (with their recipes
 * written in if the layout says so), plus the layout's index
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
	const entries: PendingEntry[] = [];
	const writtenAt = new Date();
	const addText = (name: string, content: string) => {
		const bytes = Buffer.from(content, "utf8");
		entries.push({ name, date: writtenAt, compress: true, read: async () => bytes });
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
			entries.push({
				name: inFolder(folder, layout.imageFile(row, index, imageExtension(image))),
				date: row.created_at,
				// Images are compressed already; storing them saves the CPU and changes nothing in size.
				compress: false,
				read: async () => {
					const object = await options.storage.get(image.key);
					if (!object) throw new Error(`The image ${image.key} is missing from storage`);
					// One image at a time is small enough to copy with its recipe written in.
					const data = layout.writesRecipes ? withRecipe(object.data, row, image) : object.data;
					return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
				},
			});
		});
		const mask = row.region_mask;
		if (mask && layout.maskFile) {
			entries.push({
				name: inFolder(folder, layout.maskFile),
				date: row.created_at,
				// A PNG, compressed already.
				compress: false,
				read: async () => {
					const object = await options.storage.get(mask.key);
					if (!object) throw new Error(`The mask ${mask.key} is missing from storage`);
					return Buffer.from(object.data);
				},
			});
		}
	});

	// The next files are read while this one is checksummed and sent: the disk and the CPU work
	// side by side (at most READ_AHEAD + 1 images held).
	async function* readEntries(): AsyncGenerator<ZipEntry> {
		const reads: Array<Promise<Buffer>> = [];
		const readAhead = (index: number) => {
			const read = entries[index]?.read();
			// A read that fails while nobody waits for it yet is awaited on its turn.
			read?.catch(() => {});
			if (read) reads.push(read);
		};
		for (let index = 0; index < READ_AHEAD; index++) readAhead(index);
		for (const [index, { read: _read, ...entry }] of entries.entries()) {
			const data = await (reads.shift() as Promise<Buffer>);
			readAhead(index + READ_AHEAD);
			yield { ...entry, data };
		}
	}
	// Pulled, not pushed: the next entry is read only when the client has taken the last one, so
	// a slow client holds one image in memory, however large the archive.
	const chunks = writeZip(readEntries());
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				const next = await chunks.next();
				if (next.done) controller.close();
				else
					controller.enqueue(
						new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength),
					);
			} catch (error) {
				// A missing image errors the stream instead of ending it: never a silently short file.
				controller.error(error);
			}
		},
		async cancel() {
			await chunks.return(undefined);
		},
	});
}
