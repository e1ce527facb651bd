// `npm run backup -- <folder>`: a consistent backup of the embedded install in DATA_DIR, whether its
// server runs or not (docs/decisions/017-backups.md).
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import packageJson from "../../../package.json" with { type: "json" };
import {
	DataDirLockedError,
	lockDataDir,
	readDataDirLockOwner,
	readProcessState,
} from "../db/data-dir-lock";
import { openEmbeddedDatabase } from "../db/database";
import {
	type BackupFile,
	type BackupManifest,
	DATABASE_FILE,
	hashFile,
	IMAGES_FOLDER,
	MANIFEST_FILE,
	SECRET_FILE,
} from "./backup-manifest";
import {
	BACKUP_REQUESTS_FOLDER,
	FAILED_FILE,
	REQUEST_FILE,
	readJsonIfPresent,
	SNAPSHOT_FILE,
	writeJsonAtomically,
} from "./backup-requests";
import { isEmptyOrNew } from "./empty-folder";
import {
	SNAPSHOT_DATABASE_FILE,
	SNAPSHOT_IMAGES_FOLDER,
	type SnapshotSummary,
	SnapshotSummarySchema,
	takeSnapshot,
} from "./take-snapshot";

/**
 * A backup holds password hashes, live reset and sign-in tokens, OAuth tokens and the signing
 * secret: its folders are the owner's alone, and so are its files.
 */
const PRIVATE_FOLDER_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** How long the command waits for a running server's snapshot. */
const ANSWER_TIMEOUT_MS = 10 * 60 * 1000;

class BackupError extends Error {}

/**
 * Asks the server that owns the data folder for a snapshot in `requestFolder` and waits for its
 * answer. A server still starting clears the requests folder once, so a request that vanished
 * unanswered is made again.
 */
async function askRunningServer(requestFolder: string, ownerPid: number): Promise<SnapshotSummary> {
	const deadline = Date.now() + ANSWER_TIMEOUT_MS;
	for (;;) {
		const snapshot = await readJsonIfPresent(path.join(requestFolder, SNAPSHOT_FILE));
		if (snapshot !== undefined) return SnapshotSummarySchema.parse(snapshot);
		const failed = await readJsonIfPresent(path.join(requestFolder, FAILED_FILE));
		if (failed !== undefined) {
			throw new BackupError(`The server could not take the snapshot: ${JSON.stringify(failed)}`);
		}
		if ((await readProcessState(ownerPid)) !== "running") {
			throw new BackupError(
				`The server (process ${ownerPid}) stopped during the backup. Run the backup again.`,
			);
		}
		if (Date.now() > deadline) {
			throw new BackupError(
				`The server (process ${ownerPid}) did not answer within ${ANSWER_TIMEOUT_MS / 60_000} minutes. ` +
					"A server older than the backup command does not answer; update and restart it.",
			);
		}
		if (!(await stat(path.join(requestFolder, REQUEST_FILE)).catch(() => undefined))) {
			await mkdir(requestFolder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
			await writeJsonAtomically(path.join(requestFolder, REQUEST_FILE), {
				requestedAt: new Date().toISOString(),
				pid: process.pid,
			});
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * Refuses a backup folder that exists and lets anyone but its owner in: what is written into it
 * would be readable through it, whatever the files' own modes. A new folder is made private.
 */
async function assertPrivateFolder(target: string): Promise<void> {
	const found = await stat(target).catch(() => undefined);
	const others = (found?.mode ?? 0) & 0o077;
	if (found && others !== 0) {
		const mode = (found.mode & 0o777).toString(8);
		throw new BackupError(
			`${target} can be read or entered by other users of this machine (mode ${mode}), and a ` +
				"backup holds password hashes, sign-in tokens and the signing secret. Make it private " +
				`(chmod 700 ${target}) or give a new folder.`,
		);
	}
}

/**
 * Copies `source` to `target` (gzipped when asked), readable and writable by its owner only, and
 * returns its manifest entry. The file is new: the folder was empty.
 */
async function addFile(
	target: string,
	relative: string,
	source: string,
	options: { gzip?: boolean } = {},
): Promise<BackupFile> {
	const destination = path.join(target, ...relative.split("/"));
	await mkdir(path.dirname(destination), { recursive: true, mode: PRIVATE_FOLDER_MODE });
	const output = createWriteStream(destination, { flags: "wx", mode: PRIVATE_FILE_MODE });
	if (options.gzip) await pipeline(createReadStream(source), createGzip(), output);
	else await pipeline(createReadStream(source), output);
	return { path: relative, ...(await hashFile(destination)) };
}

/** Writes the backup folder from a snapshot: the files, each with its checksum, the manifest last. */
async function writeBackup(options: {
	snapshotFolder: string;
	summary: SnapshotSummary;
	dataDir: string;
	target: string;
	takenFrom: BackupManifest["takenFrom"];
}): Promise<BackupManifest> {
	const { snapshotFolder, summary, target } = options;
	await mkdir(target, { recursive: true, mode: PRIVATE_FOLDER_MODE });
	const files: BackupFile[] = [
		await addFile(target, DATABASE_FILE, path.join(snapshotFolder, SNAPSHOT_DATABASE_FILE), {
			gzip: true,
		}),
	];
	const secret = path.join(options.dataDir, SECRET_FILE);
	const hasSecret = (await stat(secret).catch(() => undefined))?.isFile() === true;
	if (hasSecret) files.push(await addFile(target, SECRET_FILE, secret));
	for (const key of new Set(summary.imageKeys)) {
		files.push(
			await addFile(
				target,
				`${IMAGES_FOLDER}/${key}`,
				path.join(snapshotFolder, SNAPSHOT_IMAGES_FOLDER, ...key.split("/")),
			),
		);
	}
	const manifest: BackupManifest = {
		format: 1,
		atelierVersion: packageJson.version,
		createdAt: summary.createdAt,
		takenFrom: options.takenFrom,
		counts: { ...summary.counts, files: files.length },
		hasImages: summary.hasImages,
		hasSecret,
		missingImageKeys: summary.missingImageKeys,
		files,
	};
	await writeJsonAtomically(path.join(target, MANIFEST_FILE), manifest, PRIVATE_FILE_MODE);
	return manifest;
}

async function backUp(target: string): Promise<void> {
	if (process.env.DATABASE_URL) {
		throw new BackupError(
			"DATABASE_URL is set: this server uses PostgreSQL, which this command does not back up. " +
				'Use pg_dump and copy the images as "Backups" in docs/operations.md says.',
		);
	}
	const dataDir = path.resolve(process.env.DATA_DIR?.trim() || "./data");
	if (!(await stat(path.join(dataDir, "db", "PG_VERSION")).catch(() => undefined))) {
		throw new BackupError(`There is no embedded database in ${dataDir}. Is DATA_DIR right?`);
	}
	if (!(await isEmptyOrNew(target))) {
		throw new BackupError(`${path.resolve(target)} is not empty. Back up into a new folder.`);
	}
	await assertPrivateFolder(target);
	const imagesRoot = process.env.STORAGE === "s3" ? undefined : path.join(dataDir, "images");
	const requestFolder = path.join(dataDir, BACKUP_REQUESTS_FOLDER, randomUUID());
	let lock: { release(): Promise<void> } | undefined;
	try {
		lock = await lockDataDir(dataDir);
	} catch (error) {
		if (!(error instanceof DataDirLockedError)) throw error;
	}
	try {
		let summary: SnapshotSummary;
		if (lock) {
			// No server runs, and none can start while this holds the lock: nothing deletes meanwhile.
			const database = await openEmbeddedDatabase(path.join(dataDir, "db"));
			try {
				summary = await takeSnapshot(
					{ database, imagesRoot, holdDeletions: async () => () => {} },
					requestFolder,
				);
			} finally {
				await database.close();
			}
		} else {
			const owner = await readDataDirLockOwner(dataDir);
			if (owner === undefined) throw new BackupError(`Could not read ${dataDir}'s server lock.`);
			process.stdout.write(`Asking the running server (process ${owner}) for a snapshot...\n`);
			summary = await askRunningServer(requestFolder, owner);
		}
		let manifest: BackupManifest;
		try {
			manifest = await writeBackup({
				snapshotFolder: requestFolder,
				summary,
				dataDir,
				target,
				takenFrom: lock ? "stopped data folder" : "running server",
			});
		} catch (error) {
			await rm(target, { recursive: true, force: true }).catch(() => {});
			throw error;
		}
		const bytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
		process.stdout.write(
			`Backed up ${manifest.counts.people} people, ${manifest.counts.generations} generations and ` +
				`${manifest.counts.images} images (${manifest.files.length} files, ` +
				`${(bytes / 1024 / 1024).toFixed(1)} MB) from the ${manifest.takenFrom} into ${path.resolve(target)}.\n`,
		);
		if (!manifest.hasImages) {
			process.stdout.write(
				'The images are in S3 and not in this backup: copy the bucket after this backup (see "Backups" in docs/operations.md).\n',
			);
		}
		if (!manifest.hasSecret) {
			process.stdout.write(
				"No generated secret in the data folder: keep BETTER_AUTH_SECRET with this backup.\n",
			);
		}
		if (manifest.missingImageKeys.length > 0) {
			process.stdout.write(
				`Warning: ${manifest.missingImageKeys.length} images the database names were already missing from the data folder.\n`,
			);
		}
	} finally {
		await rm(requestFolder, { recursive: true, force: true });
		await lock?.release();
	}
}

const [target, ...rest] = process.argv.slice(2);
if (!target || rest.length > 0) {
	process.stderr.write(
		"Usage: npm run backup -- <folder>   (the data folder is DATA_DIR, ./data by default)\n",
	);
	process.exit(1);
}
// npm runs scripts in the project's folder; a folder given on the command line is the caller's.
backUp(path.resolve(process.env.INIT_CWD ?? process.cwd(), target)).catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof BackupError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
