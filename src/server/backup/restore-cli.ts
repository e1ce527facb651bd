// `npm run restore -- <backup folder> [<data folder>]`: brings a backup made by `npm run backup`
// back into an empty or new data folder (DATA_DIR by default), after verifying it.
import { createHash } from "node:crypto";
import { constants, createReadStream, createWriteStream } from "node:fs";
import { chmod, mkdir, open, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { DataDirLockedError, lockDataDir } from "../db/data-dir-lock";
import { PGLITE_EXTENSIONS, PGLITE_START_PARAMS } from "../db/database";
import {
	type BackupFile,
	BackupInvalidError,
	type BackupManifest,
	DATABASE_FILE,
	IMAGES_FOLDER,
	matchesEntry,
	resolveBackupPath,
	SECRET_FILE,
	verifyBackup,
} from "./backup-manifest";
import { findArchiveProblems } from "./database-archive";
import { isEmptyOrNew } from "./empty-folder";

class RestoreError extends Error {}

/** Opening for reading refuses a symbolic link, should one replace a file after verification. */
const READ_NO_LINK = constants.O_RDONLY | constants.O_NOFOLLOW;

function changedSinceVerified(backupFolder: string, file: BackupFile): BackupInvalidError {
	return new BackupInvalidError(backupFolder, [
		`${file.path} changed after it was verified: it does not match its checksum`,
	]);
}

/**
 * Reads the database's tarball once: checked against the manifest again (the bytes read are the
 * bytes unpacked), unzipped, and its entries checked (files and folders only, all inside the
 * data folder) before PGlite unpacks anything.
 */
async function readDatabase(
	backupFolder: string,
	manifest: BackupManifest,
): Promise<Uint8Array<ArrayBuffer>> {
	const entry = manifest.files.find((file) => file.path === DATABASE_FILE);
	if (!entry) throw new BackupInvalidError(backupFolder, [`${DATABASE_FILE} is not listed`]);
	const handle = await open(path.join(backupFolder, DATABASE_FILE), READ_NO_LINK);
	const packed = await handle.readFile().finally(() => handle.close());
	const actual = {
		bytes: packed.length,
		sha256: createHash("sha256").update(packed).digest("hex"),
	};
	if (!matchesEntry(actual, entry)) throw changedSinceVerified(backupFolder, entry);
	const tarball = new Uint8Array(await promisify(gunzip)(packed));
	const problems = findArchiveProblems(tarball);
	if (problems.length > 0) {
		throw new BackupInvalidError(
			backupFolder,
			problems.map((problem) => `${DATABASE_FILE}: ${problem}`),
		);
	}
	return tarball;
}

/** Unpacks the database's tarball into `<data folder>/db` by opening PGlite on it once. */
async function restoreDatabase(tarball: Uint8Array<ArrayBuffer>, dataDir: string): Promise<void> {
	const pglite = await PGlite.create(path.join(dataDir, "db"), {
		loadDataDir: new Blob([tarball]),
		extensions: PGLITE_EXTENSIONS,
		startParams: [...PGLITE_START_PARAMS],
	});
	// Opening replays what the log holds past the dump's last checkpoint; a checkpoint then keeps it.
	await pglite.exec("checkpoint");
	await pglite.close();
}

/**
 * Copies one file the manifest lists into the data folder, hashing what it copies: a file
 * changed (or replaced by a link) since verification fails the restore.
 */
async function copyVerified(backupFolder: string, dataDir: string, file: BackupFile) {
	const destination = resolveBackupPath(dataDir, file.path);
	await mkdir(path.dirname(destination), { recursive: true });
	const hash = createHash("sha256");
	let bytes = 0;
	const measure = new Transform({
		transform(chunk: Buffer, _encoding, done) {
			hash.update(chunk);
			bytes += chunk.length;
			done(null, chunk);
		},
	});
	const source = await open(resolveBackupPath(backupFolder, file.path), READ_NO_LINK);
	await pipeline(
		createReadStream("", { fd: source }),
		measure,
		createWriteStream(destination, {
			flags: "wx",
			...(file.path === SECRET_FILE ? { mode: 0o600 } : {}),
		}),
	);
	if (!matchesEntry({ bytes, sha256: hash.digest("hex") }, file)) {
		throw changedSinceVerified(backupFolder, file);
	}
}

/** Copies the images and the secret the manifest lists. */
async function restoreFiles(
	backupFolder: string,
	dataDir: string,
	manifest: BackupManifest,
): Promise<void> {
	for (const file of manifest.files) {
		if (file.path !== DATABASE_FILE) await copyVerified(backupFolder, dataDir, file);
	}
	if (manifest.hasImages) await mkdir(path.join(dataDir, IMAGES_FOLDER), { recursive: true });
}

/**
 * Makes the restored data folder as private as the backup it came from: the folder and every
 * folder in it 0700, every file 0600, whatever the umask gave them (PGlite's files included).
 */
async function makePrivate(folder: string): Promise<void> {
	await chmod(folder, 0o700);
	for (const entry of await readdir(folder, { withFileTypes: true })) {
		const entryPath = path.join(folder, entry.name);
		if (entry.isDirectory()) await makePrivate(entryPath);
		else if (entry.isFile()) await chmod(entryPath, 0o600);
	}
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
	const tarball = await readDatabase(backupFolder, manifest);
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
		await restoreDatabase(tarball, dataDir);
		await restoreFiles(backupFolder, dataDir, manifest);
		await makePrivate(dataDir);
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
