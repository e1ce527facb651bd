import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import {
	buildBackupCommands,
	imageUrlsOf,
	listWholeHistory,
	readImageOn,
	requestGenerationOn,
	runCommand,
	type Session,
	waitForCompletionOn,
} from "../testing/backup-kit";
import { type ServerProcess, signUpOn, startServer, waitFor } from "../testing/server-process";
import { BackupManifestSchema, MANIFEST_FILE } from "./backup-manifest";

const PASSWORD = "secret12";
const SessionSchema = z.object({ user: z.object({ email: z.string() }) });

/** The environment of every server and command here: the offline engine, quick. */
function serverEnv(dataDir: string): Record<string, string> {
	return {
		DATA_DIR: dataDir,
		LOCAL_ENGINE_DELAY_MS: "20",
		MAX_ACTIVE_GENERATIONS_PER_USER: "100",
		AUTH_RATE_LIMIT_ENABLED: "false",
		LOG_LEVEL: "warn",
	};
}

async function signIn(origin: string, email: string): Promise<number> {
	const response = await fetch(`${origin}/api/auth/sign-in/email`, {
		method: "POST",
		headers: { "content-type": "application/json", origin },
		body: JSON.stringify({ email, password: PASSWORD }),
	});
	return response.status;
}

async function sessionEmail(origin: string, session: Session): Promise<string | undefined> {
	const response = await fetch(`${origin}/api/auth/get-session`, { headers: session });
	const body: unknown = await response.json();
	return body === null ? undefined : SessionSchema.parse(body).user.email;
}

describe.runIf(process.platform === "linux")("backing up and restoring an embedded install", () => {
	let commands: Awaited<ReturnType<typeof buildBackupCommands>>;
	let workDir: string;
	let backupDir: string;
	let restoredDir: string;
	let restored: ServerProcess | undefined;
	const servers: ServerProcess[] = [];

	beforeAll(async () => {
		commands = await buildBackupCommands();
		await mkdir(".tmp", { recursive: true });
		workDir = path.resolve(await mkdtemp(path.join(".tmp", "backup-restore-")));
		backupDir = path.join(workDir, "backup");
	}, 120_000);
	afterAll(async () => {
		for (const server of servers) await server.kill();
		await commands?.remove();
		if (workDir) await rm(workDir, { recursive: true, force: true });
	});

	it("backs up a running server that keeps generating and deleting, and restores people, sessions, history and images", async () => {
		const original = await startServer(
			inject("serverEntry"),
			serverEnv(path.join(workDir, "data")),
		);
		servers.push(original);
		const origin = original.origin;
		const alice = await signUpOn(origin, "alice@example.com");
		const bob = await signUpOn(origin, "bob@example.com");
		const sessions = new Map<string, Session>([
			["alice@example.com", alice],
			["bob@example.com", bob],
		]);

		// Fifty generations, and every image's bytes as the original server serves them.
		const imageBytes = new Map<string, Buffer>();
		const prompts = new Map<string, string>();
		const recordImages = async (session: Session, id: string) => {
			const generation = await waitForCompletionOn(origin, session, id);
			for (const url of imageUrlsOf(generation)) {
				imageBytes.set(url, await readImageOn(origin, session, url));
			}
		};
		const firstFifty: Array<{ id: string; owner: Session }> = [];
		for (let index = 0; index < 50; index++) {
			const owner = index % 2 === 0 ? alice : bob;
			const prompt = `a harbour at dawn, study ${index}`;
			const id = await requestGenerationOn(origin, owner, prompt);
			prompts.set(id, prompt);
			firstFifty.push({ id, owner });
		}
		for (const { id, owner } of firstFifty) await recordImages(owner, id);

		// While the backup runs, the server keeps making generations and deleting some of bob's.
		let isBackupDone = false;
		const madeDuring: string[] = [];
		const deletedDuring = new Set<string>();
		const bobsFirst = firstFifty.filter(({ owner }) => owner === bob).map(({ id }) => id);
		const keepWorking = async () => {
			for (let round = 0; !isBackupDone || round < 3; round++) {
				const id = await requestGenerationOn(
					origin,
					alice,
					`a lighthouse, during the backup ${round}`,
				);
				prompts.set(id, `a lighthouse, during the backup ${round}`);
				madeDuring.push(id);
				const doomed = bobsFirst[round];
				if (doomed !== undefined && round % 2 === 0) {
					const response = await fetch(`${origin}/api/generations/${doomed}?permanent=true`, {
						method: "DELETE",
						headers: bob,
					});
					expect(response.status).toBe(200);
					deletedDuring.add(doomed);
				}
			}
		};
		const working = keepWorking();
		const backup = await runCommand(
			commands.backup,
			[backupDir],
			serverEnv(path.join(workDir, "data")),
		);
		isBackupDone = true;
		await working;
		expect(backup.stderr).toBe("");
		expect(backup.code).toBe(0);
		expect(backup.stdout).toContain("from the running server");
		for (const id of madeDuring) await recordImages(alice, id);

		const manifest = BackupManifestSchema.parse(
			JSON.parse(await readFile(path.join(backupDir, MANIFEST_FILE), "utf8")),
		);
		expect(manifest.counts.people).toBe(2);
		expect(manifest.missingImageKeys).toEqual([]);
		expect(manifest.hasSecret).toBe(true);

		restoredDir = path.join(workDir, "restored");
		const restore = await runCommand(commands.restore, [backupDir, restoredDir], {});
		expect(restore.stderr).toBe("");
		expect(restore.code).toBe(0);
		const server = await startServer(inject("serverEntry"), serverEnv(restoredDir));
		servers.push(server);
		restored = server;

		// The same people: their sessions from before the backup, and their passwords.
		for (const [email, session] of sessions) {
			expect(await sessionEmail(server.origin, session)).toBe(email);
			expect(await signIn(server.origin, email)).toBe(200);
		}

		// The same history: as many generations as the backup counted, none of the first fifty
		// missing but those deleted during the backup, each with every image readable.
		const unfinished = (history: Array<{ status: string }>) =>
			history.some(
				(generation) => generation.status === "queued" || generation.status === "running",
			);
		const histories = await waitFor(
			"the restored server to finish what the backup had queued",
			async () => {
				const lists = await Promise.all(
					[...sessions.values()].map(async (session) => ({
						session,
						history: await listWholeHistory(server.origin, session),
					})),
				);
				return lists.some(({ history }) => unfinished(history)) ? undefined : lists;
			},
		);
		const restoredIds = new Set(histories.flatMap(({ history }) => history.map(({ id }) => id)));
		expect(restoredIds.size).toBe(manifest.counts.generations);
		for (const { id } of firstFifty) {
			if (!deletedDuring.has(id)) expect(restoredIds.has(id)).toBe(true);
		}
		const allMade = new Set([...firstFifty.map(({ id }) => id), ...madeDuring]);
		let identical = 0;
		for (const { session, history } of histories) {
			for (const generation of history) {
				expect(allMade.has(generation.id)).toBe(true);
				expect(generation.prompt).toBe(prompts.get(generation.id));
				expect(generation.status).toBe("completed");
				const urls = imageUrlsOf(generation);
				expect(urls.length).toBeGreaterThan(0);
				// One the backup had completed keeps its images; one it had queued was made again here.
				const isFromBackup = urls.every((url) => imageBytes.has(url));
				expect(isFromBackup || urls.every((url) => !imageBytes.has(url))).toBe(true);
				for (const url of urls) {
					const bytes = await readImageOn(server.origin, session, url);
					if (isFromBackup) {
						expect(bytes.equals(imageBytes.get(url) ?? Buffer.alloc(0))).toBe(true);
						identical++;
					}
				}
			}
		}
		// Every image file of the backup (all but the database and the secret) was one of them.
		expect(identical).toBe(manifest.counts.files - 2);
		expect(deletedDuring.size).toBeGreaterThan(0);
	}, 300_000);

	it("backs up a data folder whose server is stopped, and leaves it free for the server again", async () => {
		if (!restored) throw new Error("the first test did not restore");
		restored.child.kill("SIGTERM");
		await restored.exited();
		const stoppedBackup = path.join(workDir, "backup-of-stopped");
		const backup = await runCommand(commands.backup, [stoppedBackup], serverEnv(restoredDir));
		expect(backup.stderr).toBe("");
		expect(backup.code).toBe(0);
		expect(backup.stdout).toContain("from the stopped data folder");

		const again = path.join(workDir, "restored-again");
		expect((await runCommand(commands.restore, [stoppedBackup, again], {})).code).toBe(0);
		const server = await startServer(inject("serverEntry"), serverEnv(again));
		servers.push(server);
		expect(await signIn(server.origin, "alice@example.com")).toBe(200);
		// The command released the folder it backed up: its server starts again.
		const restarted = await startServer(inject("serverEntry"), serverEnv(restoredDir));
		servers.push(restarted);
		expect(await signIn(restarted.origin, "bob@example.com")).toBe(200);
	}, 120_000);

	it("refuses to restore into a folder that is not empty, and leaves it as it was", async () => {
		const occupied = path.join(workDir, "occupied");
		await mkdir(occupied, { recursive: true });
		await writeFile(path.join(occupied, "notes.txt"), "mine");
		const restore = await runCommand(commands.restore, [backupDir, occupied], {});
		expect(restore.code).toBe(1);
		expect(restore.stderr).toContain(`${occupied} is not empty`);
		expect(await readFile(path.join(occupied, "notes.txt"), "utf8")).toBe("mine");
	});

	it("refuses a backup whose files were changed after it was written", async () => {
		const corrupted = path.join(workDir, "corrupted");
		await cp(backupDir, corrupted, { recursive: true });
		const manifest = BackupManifestSchema.parse(
			JSON.parse(await readFile(path.join(corrupted, MANIFEST_FILE), "utf8")),
		);
		const image = manifest.files.find((file) => file.path.startsWith("images/"));
		if (!image) throw new Error("the backup has no image");
		const file = path.join(corrupted, ...image.path.split("/"));
		const bytes = await readFile(file);
		bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
		await writeFile(file, bytes);

		const target = path.join(workDir, "from-corrupted");
		const restore = await runCommand(commands.restore, [corrupted, target], {});
		expect(restore.code).toBe(1);
		expect(restore.stderr).toContain("failed verification");
		expect(restore.stderr).toContain(`${image.path} does not match its checksum`);
		await expect(readFile(path.join(target, "auth-secret"))).rejects.toThrow();
	});
});
