// `npm run restore -- <backup folder> [<data folder>]`: brings a backup made by `npm run backup`
// back into an empty or new data folder (DATA_DIR by default), after verifying it.
import { chmod, copyFile, mkdir, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { DataDirLockedError, lockDataDir } from "../db/data-dir-lock";
import { PGLITE_EXTENSIONS, PGLITE_START_PARAMS } from "../db/database";
import {
	BackupInvalidError,
	type BackupManifest,
	DATABASE_FILE,
	IMAGES_FOLDER,
	resolveBackupPath,
	SECRET_FILE,
	verifyBackup,
} from "./backup-manifest";
import { isEmptyOrNew } from "./empty-folder";

class RestoreError extends Error {}

/** Unpacks the database's tarball into `<data folder>/db` by opening PGlite on it once. */
async function restoreDatabase(backupFolder: string, dataDir: string): Promise<void> {
	const tarball = await promisify(gunzip)(await readFile(path.join(backupFolder, DATABASE_FILE)));
	const pglite = await PGlite.create(path.join(dataDir, "db"), {
		loadDataDir: new Blob([new Uint8Array(tarball)]),
		extensions: PGLITE_EXTENSIONS,
		startParams: [...PGLITE_START_PARAMS],
	});
	// Opening replays what the log holds past the dump's last checkpoint; a checkpoint then keeps it.
	await pglite.exec("checkpoint");
	await pglite.close();
}

/** Copies the images and the secret the manifest lists. */
async function restoreFiles(
	backupFolder: string,
	dataDir: string,
	manifest: BackupManifest,
): Promise<void> {
	for (const file of manifest.files) {
		if (file.path === DATABASE_FILE) continue;
		const destination = resolveBackupPath(dataDir, file.path);
		await mkdir(path.dirname(destination), { recursive: true });
		await copyFile(resolveBackupPath(backupFolder, file.path), destination);
		if (file.path === SECRET_FILE) await chmod(destination, 0o600);
	}
	if (manifest.hasImages) await mkdir(path.join(dataDir, IMAGES_FOLDER), { recursive: true });
}

/** Removes what a failed restore wrote, leaving the folder as empty as it was found. */
async function emptyFolder(folder: string): Promise<void> {
	const entries = await readdir(folder).catch(() => []);
	await Promise.all(
		entries.map((entry) => rm(path.join(folder, entry), { recursive: true, force: true })),
	);
}

async function restore(backupFolder: string, dataDir: string): Promise<void> {
	const manifest = await verifyBackup(backupFolder);
	if (!(await isEmptyOrNew(dataDir))) {
		throw new RestoreError(
			`${dataDir} is not empty; restoring never touches a data folder in use. ` +
				"Give a new or empty folder (npm run restore -- <backup folder> <data folder>).",
		);
	}
	let lock: { release(): Promise<void> };
	try {
		// Keeps a server from starting on the folder half-way through.
		lock = await lockDataDir(dataDir);
	} catch (error) {
		if (error instanceof DataDirLockedError) throw new RestoreError(error.message);
		throw error;
	}
	try {
		await restoreDatabase(backupFolder, dataDir);
		await restoreFiles(backupFolder, dataDir, manifest);
	} catch (error) {
		await emptyFolder(dataDir);
		throw error;
	} finally {
		await lock.release();
	}
	process.stdout.write(
		`Restored ${manifest.counts.people} people, ${manifest.counts.generations} generations and ` +
			`${manifest.counts.images} images from the backup of ${manifest.createdAt} into ${dataDir}.\n` +
			`Start the server with DATA_DIR=${dataDir}.\n`,
	);
	if (!manifest.hasSecret) {
		process.stdout.write(
			"The backup has no generated secret: start the server with the BETTER_AUTH_SECRET it had, or everyone is signed out.\n",
		);
	}
	if (!manifest.hasImages) {
		process.stdout.write(
			"The backup has no images (they were in S3): the bucket must hold them as of the backup's time.\n",
		);
	}
}

const [backupFolder, dataDirArgument, ...rest] = process.argv.slice(2);
if (!backupFolder || rest.length > 0) {
	process.stderr.write(
		"Usage: npm run restore -- <backup folder> [<data folder>]   (DATA_DIR, ./data by default)\n",
	);
	process.exit(1);
}
// npm runs scripts in the project's folder; folders given on the command line are the caller's,
// while DATA_DIR is read as the server reads it.
const callerFolder = process.env.INIT_CWD ?? process.cwd();
const dataDir = dataDirArgument
	? path.resolve(callerFolder, dataDirArgument)
	: path.resolve(process.env.DATA_DIR?.trim() || "./data");
restore(path.resolve(callerFolder, backupFolder), dataDir).catch((error: unknown) => {
	const known = error instanceof RestoreError || error instanceof BackupInvalidError;
	process.stderr.write(
		`${known ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
