import { copyFile, link, mkdir, open } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Database } from "../db/database";
import { assertValidKey } from "../storage/storage";

/** Where, inside a snapshot folder, each part is. */
export const SNAPSHOT_DATABASE_FILE = "database.tar";
export const SNAPSHOT_IMAGES_FOLDER = "images";

const ImageKeysSchema = z.array(
	z.object({
		key: z.string(),
		displayKey: z.string().optional(),
		thumbnailKey: z.string(),
	}),
);

const CountSchema = z.object({ count: z.coerce.number().int() });

/** What a snapshot holds, from the same moment as its database. */
export const SnapshotSummarySchema = z.object({
	createdAt: z.iso.datetime(),
	counts: z.object({
		people: z.number().int(),
		generations: z.number().int(),
		images: z.number().int(),
	}),
	/** Every stored object the database names, relative to the images folder. */
	imageKeys: z.array(z.string()),
	/** Objects the database names that storage did not have (already missing before the backup). */
	missingImageKeys: z.array(z.string()),
	/** False where the images live in a bucket, which is backed up on its own. */
	hasImages: z.boolean(),
});
export type SnapshotSummary = z.infer<typeof SnapshotSummarySchema>;

export type SnapshotDeps = {
	database: Database;
	/** The local images folder; undefined when images are stored in S3. */
	imagesRoot: string | undefined;
	/** Holds stored objects' removal until released (docs/decisions/017-backups.md). */
	holdDeletions(): Promise<() => void>;
};

/** Every object key a generation's images name: original, display copy and thumbnail. */
function keysOf(images: unknown): string[] {
	return ImageKeysSchema.parse(images).flatMap((image) => [
		image.key,
		...(image.displayKey ? [image.displayKey] : []),
		image.thumbnailKey,
	]);
}

/** Writes a blob a chunk at a time, so the tarball is not copied once more in memory. */
async function writeBlob(blob: Blob, file: string): Promise<void> {
	// The database's tarball: password hashes and tokens, the owner's alone.
	const handle = await open(file, "w", 0o600);
	try {
		const reader = blob.stream().getReader();
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			await handle.write(value);
		}
	} finally {
		await handle.close();
	}
}

/**
 * Hard links `key` from the images folder into the snapshot: instant, and the link keeps the file
 * after a later deletion. Where the file system has no hard links, a copy. False when it is missing.
 */
async function linkImage(imagesRoot: string, folder: string, key: string): Promise<boolean> {
	assertValidKey(key);
	const source = path.join(imagesRoot, ...key.split("/"));
	const target = path.join(folder, SNAPSHOT_IMAGES_FOLDER, ...key.split("/"));
	await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
	try {
		await link(source, target);
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return false;
		if (code !== "EXDEV" && code !== "EPERM" && code !== "ENOTSUP" && code !== "EMLINK") {
			throw error;
		}
	}
	await copyFile(source, target);
	return true;
}

/**
 * Writes the database and the images it names, as of one moment, into `folder`:
 * with stored objects' removal held, on the pool's one connection (so no transaction is open),
 * a checkpoint, the rows' image keys and counts, and the data folder's tarball; then the images
 * are linked and the hold released. Images stored after that moment are not needed: no row of
 * the snapshot names them.
 */
export async function takeSnapshot(deps: SnapshotDeps, folder: string): Promise<SnapshotSummary> {
	const { dumpDataDir } = deps.database;
	if (!dumpDataDir) throw new Error("Only the embedded database can be snapshotted");
	await mkdir(folder, { recursive: true, mode: 0o700 });
	const release = await deps.holdDeletions();
	try {
		const client = await deps.database.pool.connect();
		let createdAt: string;
		let counts: SnapshotSummary["counts"];
		let imageKeys: string[];
		let tarball: Blob;
		try {
			// Writes the changed pages out, so opening the copy has little of the log to replay.
			await client.query("checkpoint");
			createdAt = new Date().toISOString();
			const people = CountSchema.parse((await client.query(`select count(*) from "user"`)).rows[0]);
			const rows = (
				await client.query(
					"select images, reference_image->>'key' as reference_key, region_mask->>'key' as mask_key from generations",
				)
			).rows;
			const imagesPerRow = rows.map((row: { images: unknown }) =>
				ImageKeysSchema.parse(row.images),
			);
			// A generation made from an image also names its own copy of that image, and a region
			// edit its mask.
			imageKeys = rows.flatMap(
				(row: { images: unknown; reference_key: unknown; mask_key: unknown }) => [
					...keysOf(row.images),
					...(typeof row.reference_key === "string" ? [row.reference_key] : []),
					...(typeof row.mask_key === "string" ? [row.mask_key] : []),
				],
			);
			counts = {
				people: people.count,
				generations: rows.length,
				images: imagesPerRow.reduce((sum, images) => sum + images.length, 0),
			};
			// PGlite runs nothing else meanwhile: this connection is the pool's only one.
			tarball = await dumpDataDir();
		} finally {
			client.release();
		}
		await writeBlob(tarball, path.join(folder, SNAPSHOT_DATABASE_FILE));
		const missingImageKeys: string[] = [];
		if (deps.imagesRoot) {
			for (const key of imageKeys) {
				if (!(await linkImage(deps.imagesRoot, folder, key))) missingImageKeys.push(key);
			}
		}
		return {
			createdAt,
			counts,
			imageKeys: deps.imagesRoot ? imageKeys.filter((key) => !missingImageKeys.includes(key)) : [],
			missingImageKeys,
			hasImages: deps.imagesRoot !== undefined,
		};
	} finally {
		release();
	}
}
