import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

/** A real S3-protocol server (s3rver, from npm) on 127.0.0.1, storing into its own temp folder. */
export type S3Server = {
	/** For path-style requests, e.g. `http://127.0.0.1:41234`. */
	endpoint: string;
	bucket: string;
	region: string;
	/**
	 * s3rver's one account. It refuses any other access key id (InvalidAccessKeyId); it does not
	 * check SigV4 signatures, so a wrong secret with this key id goes through.
	 */
	accessKeyId: string;
	secretAccessKey: string;
	/**
	 * Every key in the bucket that starts with `prefix`, sorted, read from s3rver's folder: the
	 * objects the bucket holds, whether or not a listing through the API would find them.
	 */
	listKeys(prefix?: string): Promise<string[]>;
	stop(): Promise<void>;
};

/** How s3rver's filesystem store names an object's bytes: `<folder>/<name>._S3rver_object`. */
const OBJECT_SUFFIX = "._S3rver_object";
/** And its metadata, written once the bytes are all in: `<folder>/<name>._S3rver_metadata.json`. */
const METADATA_SUFFIX = "._S3rver_metadata.json";

// Runs in the child: starts s3rver, prints its port, and exits when the parent goes away.
const CHILD_SCRIPT = `
const S3rver = require(process.argv[1]);
const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
	address: "127.0.0.1",
	port: 0,
	silent: true,
	directory,
	configureBuckets: [{ name: bucket }],
});
server.run().then(
	(address) => process.stdout.write(JSON.stringify({ port: address.port }) + "\\n"),
	(error) => {
		process.stderr.write(String(error && error.stack || error) + "\\n");
		process.exit(1);
	},
);
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
`;

/**
 * Starts s3rver on a free port of 127.0.0.1, silent, with one empty bucket, in its own process.
 *
 * It runs in a child process started with `--openssl-legacy-provider`: s3rver 3.7.1 makes its
 * ListObjectsV2 continuation tokens with DES, which the OpenSSL 3 of Node 17+ has only in the
 * legacy provider; without it every listing with more than one page answers 500.
 *
 * Behaviour of s3rver 3.7.1 that tests meet:
 * - ListObjectsV2 pages hold 1000 keys (fewer only when the request asks with max-keys).
 * - DeleteObjects deletes its keys concurrently, and each delete then removes the folders it
 *   emptied without guarding against the others: a DeleteObjects that empties a folder of two or
 *   more keys answers 500 InternalError (ENOENT on `scandir`) after deleting them all. The SDK
 *   retries a 500 (DeleteObjects is idempotent) and the second attempt answers 200, so a test sees
 *   no error, only a second request; `listKeys` shows the objects are gone.
 */
export async function startS3Server(options: { bucket?: string } = {}): Promise<S3Server> {
	const bucket = options.bucket ?? "atelier-test";
	const directory = await mkdtemp(path.join(tmpdir(), "atelier-s3rver-"));
	const s3rverMain = createRequire(import.meta.url).resolve("s3rver");
	const child = spawn(
		process.execPath,
		[
			"--openssl-legacy-provider",
			"--no-deprecation",
			"-e",
			CHILD_SCRIPT,
			s3rverMain,
			directory,
			bucket,
		],
		{ stdio: ["pipe", "pipe", "pipe"] },
	);
	const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	let port: number;
	try {
		port = await readPort(child);
	} catch (error) {
		child.kill("SIGKILL");
		await exited;
		await rm(directory, { recursive: true, force: true });
		throw error;
	}
	const bucketFolder = path.join(directory, bucket);
	return {
		endpoint: `http://127.0.0.1:${port}`,
		bucket,
		region: "us-east-1",
		accessKeyId: "S3RVER",
		secretAccessKey: "S3RVER",
		async listKeys(prefix = "") {
			const entries = await readdir(bucketFolder, { recursive: true, withFileTypes: true });
			const files = new Set(
				entries
					.filter((entry) => entry.isFile())
					.map((entry) => path.join(entry.parentPath, entry.name)),
			);
			// An upload cut off by a killed client leaves s3rver the bytes received so far without
			// metadata: s3rver never lists or serves it, and S3 would not have stored it at all.
			const isStored = (file: string) =>
				files.has(`${file.slice(0, -OBJECT_SUFFIX.length)}${METADATA_SUFFIX}`);
			return entries
				.filter(
					(entry) =>
						entry.isFile() &&
						entry.name.endsWith(OBJECT_SUFFIX) &&
						isStored(path.join(entry.parentPath, entry.name)),
				)
				.map((entry) =>
					path
						.relative(bucketFolder, path.join(entry.parentPath, entry.name))
						.split(path.sep)
						.join("/")
						.slice(0, -OBJECT_SUFFIX.length),
				)
				.filter((key) => key.startsWith(prefix))
				.sort();
		},
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
			await exited;
			await rm(directory, { recursive: true, force: true });
		},
	};
}

/** The port the child prints once s3rver listens; rejects with its output if it exits first. */
function readPort(child: ChildProcess): Promise<number> {
	return new Promise((resolve, reject) => {
		let stdout = "";
		let stderr = "";
		const timer = setTimeout(() => reject(new Error(`s3rver did not start:\n${stderr}`)), 30_000);
		child.stderr?.on("data", (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.stdout?.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
			const line = stdout.split("\n")[0];
			if (stdout.includes("\n") && line) {
				clearTimeout(timer);
				resolve((JSON.parse(line) as { port: number }).port);
			}
		});
		child.once("exit", (code, signal) => {
			clearTimeout(timer);
			reject(new Error(`s3rver exited (${code ?? signal}) before listening:\n${stderr}`));
		});
	});
}
