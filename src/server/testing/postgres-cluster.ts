import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

type PostgresCluster = {
	url: string;
	stop(): Promise<void>;
};

function findPostgresBin(): string | undefined {
	const root = "/usr/lib/postgresql";
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((name) => existsSync(path.join(root, name, "bin", "pg_ctl")))
		.sort((a, b) => Number(b) - Number(a));
	const newest = versions[0];
	return newest ? path.join(root, newest, "bin") : undefined;
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export async function findFreePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			server.close(() => {
				if (address && typeof address === "object") resolve(address.port);
				else reject(new Error("no port"));
			});
		});
	});
}

/**
 * Starts a throwaway PostgreSQL server from the installed binaries, in a temporary folder, on
 * 127.0.0.1. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
 * Returns undefined (and says why) when that is not possible here.
 */
export async function startPostgresCluster(): Promise<PostgresCluster | { unavailable: string }> {
	const bin = findPostgresBin();
	if (!bin) return { unavailable: "no PostgreSQL server binaries under /usr/lib/postgresql" };
	const isRoot = process.getuid?.() === 0;
	const asServerUser = async (command: string, args: string[]) => {
		const binary = path.join(bin, command);
		if (isRoot) return run("runuser", ["-u", "postgres", "--", binary, ...args]);
		return run(binary, args);
	};
	const directory = await mkdtemp(path.join(tmpdir(), "atelier-pg-"));
	try {
		if (isRoot) {
			await chmod(directory, 0o777);
		}
		const dataDir = path.join(directory, "data");
		await asServerUser("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8"]);
		const port = await findFreePort();
		await asServerUser("pg_ctl", [
			"-D",
			dataDir,
			"-l",
			path.join(directory, "server.log"),
			"-w",
			"-t",
			"60",
			"-o",
			`-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
			"start",
		]);
		return {
			url: `postgres://postgres@127.0.0.1:${port}/postgres`,
			async stop() {
				await asServerUser("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(
					() => {},
				);
				await rm(directory, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await rm(directory, { recursive: true, force: true });
		const detail = error instanceof Error ? error.message : String(error);
		return { unavailable: `could not start a PostgreSQL server: ${detail}` };
	}
}
