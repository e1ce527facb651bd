import { createHash } from "node:crypto";
import {
	chmod,
	cp,
	mkdir,
	mkdtemp,
	readdir,
	readFile,
	rm,
	stat,
	symlink,
	writeFile,
} from "node:fs/promises";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
	buildBackupCommands,
	requestGenerationOn,
	runCommand,
	waitForCompletionOn,
} from "../testing/backup-kit";
import { signUpOn, startServer } from "../testing/server-process";
import { type BackupManifest, BackupManifestSchema, MANIFEST_FILE } from "./backup-manifest";

/** Every folder and file under `folder` with its permission bits, by path inside it. */
async function modesUnder(folder: string, relative = ""): Promise<Map<string, number>> {
	const modes = new Map<string, number>();
	for (const entry of await readdir(path.join(folder, relative), { withFileTypes: true })) {
		const name = relative ? `${relative}/${entry.name}` : entry.name;
		modes.set(name, (await stat(path.join(folder, name))).mode & 0o777);
		if (entry.isDirectory())
			for (const [key, mode] of await modesUnder(folder, name)) modes.set(key, mode);
	}
	return modes;
}

async function readManifest(folder: string): Promise<BackupManifest> {
	return BackupManifestSchema.parse(
		JSON.parse(await readFile(path.join(folder, MANIFEST_FILE), "utf8")),
	);
}

/** Records a file's new bytes in the manifest, as whoever changed the backup would. */
async function rewriteListed(folder: string, relative: string, data: Buffer): Promise<void> {
	await writeFile(path.join(folder, ...relative.split("/")), data);
	const manifest = await readManifest(folder);
	const files = manifest.files.map((file) =>
		file.path === relative
			? { ...file, bytes: data.length, sha256: createHash("sha256").update(data).digest("hex") }
			: file,
	);
	await writeFile(path.join(folder, MANIFEST_FILE), JSON.stringify({ ...manifest, files }));
}

/** A ustar header of a symbolic link named `name` pointing at `target`. */
function symlinkHeader(name: string, target: string): Buffer {
	const header = Buffer.alloc(512);
	header.write(name, 0);
	header.write("0000777\0", 100);
	header.write("0000000\0", 108);
	header.write("0000000\0", 116);
	header.write("00000000000\0", 124);
	header.write("00000000000\0", 136);
	header.write("        ", 148);
	header.write("2", 156);
	header.write(target, 157);
	header.write("ustar\u000000", 257);
	const checksum = header.reduce((sum, byte) => sum + byte, 0);
	header.write(`${checksum.toString(8).padStart(6, "0")}\0 `, 148);
	return header;
}

/** The tarball without its closing zero blocks, `entry` added, and the closing blocks again. */
function appendToTar(tar: Buffer, entry: Buffer): Buffer {
	let end = 0;
	while (end + 512 <= tar.length && tar.subarray(end, end + 512).some((byte) => byte !== 0)) {
		const size = Number.parseInt(
			tar
				.subarray(end + 124, end + 136)
				.toString("latin1")
				.replace(/\0.*$/s, "")
				.trim() || "0",
			8,
		);
		end += 512 + Math.ceil(size / 512) * 512;
	}
	return Buffer.concat([tar.subarray(0, end), entry, Buffer.alloc(1024)]);
}

async function isEmptyOrMissing(folder: string): Promise<boolean> {
	return (await readdir(folder).catch(() => [])).length === 0;
}

describe.runIf(process.platform === "linux")("a backup's privacy and a restore's trust", () => {
	let commands: Awaited<ReturnType<typeof buildBackupCommands>>;
	let workDir: string;
	let dataDir: string;
	let backupDir: string;
	let imagePath: string;

	beforeAll(async () => {
		commands = await buildBackupCommands();
		await mkdir(".tmp", { recursive: true });
		workDir = path.resolve(await mkdtemp(path.join(".tmp", "backup-safety-")));
		dataDir = path.join(workDir, "data");
		const env = { DATA_DIR: dataDir, LOCAL_ENGINE_DELAY_MS: "20", LOG_LEVEL: "warn" };
		const server = await startServer(inject("serverEntry"), env);
		try {
			const session = await signUpOn(server.origin, "alice@example.com");
			const id = await requestGenerationOn(server.origin, session, "a quiet harbour", 1);
			await waitForCompletionOn(server.origin, session, id);
		} finally {
			await server.kill();
		}
		backupDir = path.join(workDir, "backup");
		const backup = await runCommand(commands.backup, [backupDir], { DATA_DIR: dataDir });
		expect(backup.stderr).toBe("");
		const image = (await readManifest(backupDir)).files.find((file) =>
			file.path.startsWith("images/"),
		);
		if (!image) throw new Error("the backup has no image");
		imagePath = image.path;
	}, 180_000);
	afterAll(async () => {
		await commands?.remove();
		if (workDir) await rm(workDir, { recursive: true, force: true });
	});

	/** A copy of the backup to tamper with. */
	async function copyOfBackup(name: string): Promise<string> {
		const copy = path.join(workDir, name);
		await cp(backupDir, copy, { recursive: true });
		return copy;
	}

	it("writes every folder of a backup 0700 and every file 0600", async () => {
		const modes = await modesUnder(backupDir);
		expect(modes.size).toBeGreaterThan(3);
		expect((await stat(backupDir)).mode & 0o777).toBe(0o700);
		for (const [name, mode] of modes) {
			const isFolder = (await stat(path.join(backupDir, name))).isDirectory();
			expect({ name, mode: mode.toString(8) }).toEqual({ name, mode: isFolder ? "700" : "600" });
		}
	});

	it("refuses an existing empty folder that other users can read, writing nothing, and takes it once private", async () => {
		const shared = path.join(workDir, "shared-folder");
		await mkdir(shared);
		await chmod(shared, 0o755);

		const refused = await runCommand(commands.backup, [shared], { DATA_DIR: dataDir });

		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain(
			`${shared} can be read or entered by other users of this machine (mode 755)`,
		);
		expect(refused.stderr).toContain(`chmod 700 ${shared}`);
		expect(await readdir(shared)).toEqual([]);

		await chmod(shared, 0o700);
		const taken = await runCommand(commands.backup, [shared], { DATA_DIR: dataDir });
		expect(taken.stderr).toBe("");
		expect(taken.code).toBe(0);
		expect((await stat(path.join(shared, "database.tar.gz"))).mode & 0o777).toBe(0o600);
	});

	it("restores into a data folder as private as the backup, whatever the umask or the folder given", async () => {
		const given = path.join(workDir, "restore-into-shared");
		await mkdir(given);
		await chmod(given, 0o755);

		for (const target of [path.join(workDir, "restore-new"), given]) {
			const restore = await runCommand(commands.restore, [backupDir, target], {});
			expect(restore.stderr).toBe("");
			expect(restore.code).toBe(0);
			const modes = await modesUnder(target);
			expect([...modes.keys()]).toContain(imagePath);
			expect((await stat(target)).mode & 0o777).toBe(0o700);
			for (const [name, mode] of modes) {
				const isFolder = (await stat(path.join(target, name))).isDirectory();
				expect({ name, mode: mode.toString(8) }).toEqual({ name, mode: isFolder ? "700" : "600" });
			}
		}
	});

	it("refuses a backup holding a symbolic link, even to a file or folder with the very bytes listed", async () => {
		const linkedFile = await copyOfBackup("linked-file");
		const file = path.join(linkedFile, ...imagePath.split("/"));
		const elsewhere = path.join(workDir, "elsewhere.png");
		await cp(file, elsewhere);
		await rm(file);
		await symlink(elsewhere, file);
		const linkedFolder = await copyOfBackup("linked-folder");
		const images = path.join(linkedFolder, "images");
		await cp(images, path.join(workDir, "images-elsewhere"), { recursive: true });
		await rm(images, { recursive: true });
		await symlink(path.join(workDir, "images-elsewhere"), images);

		for (const [backup, link] of [
			[linkedFile, imagePath],
			[linkedFolder, "images"],
		] as const) {
			const target = path.join(workDir, `restored-${path.basename(backup)}`);
			const restore = await runCommand(commands.restore, [backup, target], {});
			expect(restore.code).toBe(1);
			expect(restore.stderr).toContain(
				`${link} is a symbolic link: a backup holds only files and folders`,
			);
			expect(await isEmptyOrMissing(target)).toBe(true);
		}
	});

	it("refuses a database archive holding a symbolic link, even with the manifest updated to match", async () => {
		const tampered = await copyOfBackup("linked-archive");
		const tar = gunzipSync(await readFile(path.join(tampered, "database.tar.gz")));
		const withLink = appendToTar(tar, symlinkHeader("/base/escape", "/etc/passwd"));
		await rewriteListed(tampered, "database.tar.gz", gzipSync(withLink));
		const target = path.join(workDir, "restored-linked-archive");

		const restore = await runCommand(commands.restore, [tampered, target], {});

		expect(restore.code).toBe(1);
		expect(restore.stderr).toContain(
			"database.tar.gz: /base/escape is a symbolic link (to /etc/passwd): the database holds only files and folders",
		);
		expect(await isEmptyOrMissing(target)).toBe(true);
	});

	it("hashes what it copies: a file changed after verification fails the restore and leaves nothing", async () => {
		const changing = await copyOfBackup("changing");
		const target = path.join(workDir, "restored-changing");
		const restoring = runCommand(commands.restore, [changing, target], {});
		// The data folder's lock is taken once every file was verified, before anything is copied.
		let hasEnded = false;
		void restoring.finally(() => {
			hasEnded = true;
		});
		const lock = path.join(target, "server.lock");
		while (!hasEnded && !(await stat(lock).catch(() => undefined))) {
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		const file = path.join(changing, ...imagePath.split("/"));
		const bytes = await readFile(file);
		bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
		await writeFile(file, bytes);

		const restore = await restoring;

		expect(restore.code).toBe(1);
		expect(restore.stderr).toContain(
			`${imagePath} changed after it was verified: it does not match its checksum`,
		);
		expect(await isEmptyOrMissing(target)).toBe(true);
	});
});
