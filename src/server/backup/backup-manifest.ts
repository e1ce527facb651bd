import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { assertValidKey } from "../storage/storage";

/** Written last: a backup folder without it is incomplete. */
export const MANIFEST_FILE = "manifest.json";
/** The database inside a backup: PGlite's data folder as a gzipped tarball. */
export const DATABASE_FILE = "database.tar.gz";
/** The signing secret the embedded setup made (absent when BETTER_AUTH_SECRET was set). */
export const SECRET_FILE = "auth-secret";
export const IMAGES_FOLDER = "images";

const BackupFileSchema = z.object({
	/** Relative to the backup folder, slash-separated. */
	path: z.string().min(1),
	bytes: z.number().int().min(0),
	sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupFile = z.infer<typeof BackupFileSchema>;

export const BackupManifestSchema = z.object({
	format: z.literal(1),
	atelierVersion: z.string(),
	createdAt: z.iso.datetime(),
	/** Whether a running server took the snapshot, or the command on a stopped data folder. */
	takenFrom: z.enum(["running server", "stopped data folder"]),
	counts: z.object({
		people: z.number().int(),
		generations: z.number().int(),
		images: z.number().int(),
		files: z.number().int(),
	}),
	hasImages: z.boolean(),
	hasSecret: z.boolean(),
	missingImageKeys: z.array(z.string()),
	files: z.array(BackupFileSchema),
});
export type BackupManifest = z.infer<typeof BackupManifestSchema>;

/** A backup that is incomplete or was changed since it was written. */
export class BackupInvalidError extends Error {
	constructor(
		folder: string,
		readonly problems: readonly string[],
	) {
		super(
			`The backup in ${path.resolve(folder)} failed verification:\n${problems
				.slice(0, 20)
				.map((problem) => `  - ${problem}`)
				.join("\n")}${problems.length > 20 ? `\n  - and ${problems.length - 20} more` : ""}`,
		);
		this.name = "BackupInvalidError";
	}
}

/** A file's size and SHA-256, read as a stream. */
export async function hashFile(file: string): Promise<Omit<BackupFile, "path">> {
	const hash = createHash("sha256");
	let bytes = 0;
	for await (const chunk of createReadStream(file)) {
		hash.update(chunk as Buffer);
		bytes += (chunk as Buffer).length;
	}
	return { bytes, sha256: hash.digest("hex") };
}

/** Where a manifest path points inside `folder`; throws for one that would leave it. */
export function resolveBackupPath(folder: string, relative: string): string {
	const parts = relative.split("/");
	if (parts[0] === IMAGES_FOLDER) assertValidKey(parts.slice(1).join("/"));
	else if (relative !== DATABASE_FILE && relative !== SECRET_FILE) {
		throw new Error(`Unexpected file in a backup: ${relative}`);
	}
	return path.join(folder, ...parts);
}

/**
 * Reads the manifest of the backup in `folder` and checks every file it lists (size and SHA-256)
 * and that the database is among them; throws BackupInvalidError naming each problem.
 */
export async function verifyBackup(folder: string): Promise<BackupManifest> {
	let text: string;
	try {
		text = await readFile(path.join(folder, MANIFEST_FILE), "utf8");
	} catch {
		throw new BackupInvalidError(folder, [
			`${MANIFEST_FILE} is missing: this is not a complete Atelier backup`,
		]);
	}
	let parsed: ReturnType<typeof BackupManifestSchema.safeParse>;
	try {
		parsed = BackupManifestSchema.safeParse(JSON.parse(text));
	} catch {
		throw new BackupInvalidError(folder, [`${MANIFEST_FILE} is not JSON`]);
	}
	if (!parsed.success) {
		throw new BackupInvalidError(folder, [`${MANIFEST_FILE} is not an Atelier backup manifest`]);
	}
	const manifest = parsed.data;
	const problems: string[] = [];
	if (!manifest.files.some((file) => file.path === DATABASE_FILE)) {
		problems.push(`${DATABASE_FILE} is not listed`);
	}
	for (const file of manifest.files) {
		let target: string;
		try {
			target = resolveBackupPath(folder, file.path);
		} catch (error) {
			problems.push(error instanceof Error ? error.message : String(error));
			continue;
		}
		const found = await stat(target).catch(() => undefined);
		if (!found?.isFile()) {
			problems.push(`${file.path} is missing`);
			continue;
		}
		const actual = await hashFile(target);
		if (actual.bytes !== file.bytes) {
			problems.push(`${file.path} has ${actual.bytes} bytes, the manifest says ${file.bytes}`);
		} else if (actual.sha256 !== file.sha256) {
			problems.push(`${file.path} does not match its checksum`);
		}
	}
	if (problems.length > 0) throw new BackupInvalidError(folder, problems);
	return manifest;
}
