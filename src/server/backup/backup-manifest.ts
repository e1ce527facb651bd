import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
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

/** Whether a file's size and SHA-256 are what the manifest says. */
export function matchesEntry(actual: Omit<BackupFile, "path">, file: BackupFile): boolean {
	return actual.bytes === file.bytes && actual.sha256 === file.sha256;
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
 * Every entry under `folder` that is not a plain file or folder (a symbolic link above all, which
 * would have a restore read, and copy into the data folder, whatever it points at), named by its
 * path in the backup. Links are not followed.
 */
async function findOddEntries(folder: string, relative = ""): Promise<string[]> {
	const problems: string[] = [];
	for (const entry of await readdir(path.join(folder, relative), { withFileTypes: true })) {
		const name = relative ? `${relative}/${entry.name}` : entry.name;
		if (entry.isDirectory()) problems.push(...(await findOddEntries(folder, name)));
		else if (entry.isSymbolicLink()) {
			problems.push(`${name} is a symbolic link: a backup holds only files and folders`);
		} else if (!entry.isFile()) problems.push(`${name} is not a file or a folder`);
	}
	return problems;
}

/**
 * Checks that the backup in `folder` holds only files and folders (no symbolic link), reads its
 * manifest and checks every file it lists (size and SHA-256) and that the database is among them;
 * throws BackupInvalidError naming each problem.
 */
export async function verifyBackup(folder: string): Promise<BackupManifest> {
	const oddEntries = await findOddEntries(folder).catch((error: unknown) =>
		// A folder that is not there has no manifest either, which the next check says.
		(error as NodeJS.ErrnoException).code === "ENOENT"
			? []
			: [
					`the backup folder cannot be read: ${error instanceof Error ? error.message : String(error)}`,
				],
	);
	if (oddEntries.length > 0) throw new BackupInvalidError(folder, oddEntries);
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
		const found = await lstat(target).catch(() => undefined);
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
