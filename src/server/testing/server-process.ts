import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { findFreePort } from "./postgres-cluster";

/**
 * The real server entry point bundled as `npm run build` does (without the web app), in a temp
 * folder. Tests use the one global-setup.ts builds for the whole run: `inject("serverEntry")`.
 */
export async function buildServerBundle(): Promise<{
	entry: string;
	rebuild(): Promise<void>;
	remove(): Promise<void>;
}> {
	// Inside the project, so the bundle resolves its dependencies from node_modules.
	await mkdir(".tmp", { recursive: true });
	const folder = await mkdtemp(path.join(".tmp", "server-"));
	const entry = path.join(folder, "server", "main.js");
	const rebuild = async () => {
		await build({
			entryPoints: ["src/server/main.ts"],
			outfile: entry,
			bundle: true,
			platform: "node",
			format: "esm",
			packages: "external",
			logLevel: "error",
		});
	};
	await rebuild();
	return { entry, rebuild, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** A server running as its own OS process. */
export type ServerProcess = {
	readonly child: ChildProcess;
	/** Where this process listens (its BASE_URL may name a load balancer in front of several). */
	readonly origin: string;
	/** Everything it printed so far. */
	output(): string;
	/** The JSON log lines it printed, parsed. */
	logs(): Array<Record<string, unknown>>;
	/** Resolves once it has exited (at once if it has). */
	exited(): Promise<void>;
	kill(signal?: NodeJS.Signals): Promise<void>;
};

/** Polls `check` until it returns a value; an error starting with "exited:" ends the wait at once. */
export async function waitFor<T>(
	what: string,
	check: () => Promise<T | undefined>,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check().catch((error: unknown) => {
			if (error instanceof Error && error.message.startsWith("exited:")) throw error;
			return undefined;
		});
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** Spawns the bundled server with `env` (and nothing of this process's environment but PATH). */
export function spawnServer(entry: string, env: Record<string, string>): ServerProcess {
	const origin = `http://127.0.0.1:${env.PORT}`;
	let output = "";
	const child = spawn(process.execPath, [entry], {
		cwd: process.cwd(),
		env: {
			PATH: process.env.PATH ?? "",
			NODE_ENV: "development",
			HOST: "127.0.0.1",
			// No load balancer watches a test's server: SIGTERM need not wait for one.
			READY_DRAIN_MS: "0",
			...env,
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	child.stdout?.on("data", (chunk) => {
		output += chunk;
	});
	child.stderr?.on("data", (chunk) => {
		output += chunk;
	});
	const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	return {
		child,
		origin,
		output: () => output,
		logs: () =>
			output
				.split("\n")
				.filter((line) => line.startsWith("{"))
				.flatMap((line) => {
					try {
						return [JSON.parse(line) as Record<string, unknown>];
					} catch {
						return [];
					}
				}),
		exited: () => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : exit),
		async kill(signal = "SIGKILL") {
			if (child.exitCode === null && child.signalCode === null) child.kill(signal);
			await exit;
		},
	};
}

/** Resolves when the server answers its health check; throws "exited: …" if it stopped instead. */
export async function waitUntilHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
	await waitFor(
		`the server at ${server.origin} to start`,
		async () => {
			if (server.child.exitCode !== null) throw new Error(`exited: ${server.output()}`);
			const response = await fetch(`${server.origin}/api/health`);
			return response.ok ? true : undefined;
		},
		timeoutMs,
	);
}

/** Spawns a server on a free port and waits until it is healthy. */
export async function startServer(
	entry: string,
	env: Record<string, string>,
): Promise<ServerProcess> {
	const port = String(await findFreePort());
	const server = spawnServer(entry, { PORT: port, BASE_URL: `http://127.0.0.1:${port}`, ...env });
	await waitUntilHealthy(server);
	return server;
}

/**
 * Signs a new person up through the real endpoint at `address`; returns the headers of their
 * session, sent from `appOrigin` (the server's BASE_URL).
 */
export async function signUpOn(
	address: string,
	email: string,
	appOrigin = address,
): Promise<{ cookie: string; origin: string; "content-type": string }> {
	const origin = appOrigin;
	const response = await fetch(`${address}/api/auth/sign-up/email`, {
		method: "POST",
		headers: { "content-type": "application/json", origin },
		body: JSON.stringify({ email, password: "secret12", name: email.split("@")[0] }),
	});
	if (response.status !== 200) throw new Error(`sign-up answered ${response.status}`);
	const cookie = response.headers
		.getSetCookie()
		.map((value) => value.split(";")[0])
		.join("; ");
	return { cookie, origin, "content-type": "application/json" };
}

/**
 * The token of the newest reset link a server without SMTP logged for `email`, as a person opening
 * it gets it: the link's redirect to the reset page names it.
 */
export async function readLoggedResetToken(
	server: ServerProcess,
	email: string,
	appOrigin = server.origin,
): Promise<string> {
	const link = await waitFor("the reset link in the server's log", async () => {
		const line = server
			.logs()
			.findLast((entry) => entry.to === email && typeof entry.link === "string");
		return typeof line?.link === "string" ? new URL(line.link) : undefined;
	});
	const landing = await fetch(`${server.origin}${link.pathname}${link.search}`, {
		redirect: "manual",
	});
	const token = new URL(landing.headers.get("location") ?? "", appOrigin).searchParams.get("token");
	if (!token) throw new Error(`the reset link led to ${landing.headers.get("location")}`);
	return token;
}

/**
 * The administrator as an operator of a server without SMTP makes them: signs up with ADMIN_EMAIL,
 * opens the claim link the server logged and chooses the password (the one signUpOn gives
 * everyone). Returns the headers of the session the claim signs in.
 */
export async function claimAdministratorOn(
	server: ServerProcess,
	email: string,
	appOrigin = server.origin,
): Promise<{ cookie: string; origin: string; "content-type": string }> {
	await signUpOn(server.origin, email, appOrigin);
	const token = await readLoggedResetToken(server, email, appOrigin);
	const response = await fetch(`${server.origin}/api/auth/reset-password`, {
		method: "POST",
		headers: { "content-type": "application/json", origin: appOrigin },
		body: JSON.stringify({ token, newPassword: "secret12" }),
	});
	if (response.status !== 200) throw new Error(`the claim answered ${response.status}`);
	const cookie = response.headers
		.getSetCookie()
		.map((value) => value.split(";")[0])
		.join("; ");
	return { cookie, origin: appOrigin, "content-type": "application/json" };
}
