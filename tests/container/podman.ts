import { spawn } from "node:child_process";

/** What a command printed, and how it ended. */
type CommandResult = { code: number | null; stdout: string; stderr: string };

/** Runs a command without a shell, collecting what it prints. */
export function runCommand(
	command: string,
	args: readonly string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk) => {
			stdout += chunk;
		});
		child.stderr.on("data", (chunk) => {
			stderr += chunk;
		});
		child.once("error", reject);
		child.once("close", (code) => resolve({ code, stdout, stderr }));
	});
}

/** Runs a command that must succeed; its output names the failure. */
export async function mustRun(
	command: string,
	args: readonly string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
	const result = await runCommand(command, args, options);
	if (result.code !== 0) {
		const output = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-40).join("\n");
		throw new Error(`${command} ${args.join(" ")} exited with ${result.code}:\n${output}`);
	}
	return result.stdout.trim();
}

/** `podman <args>`, which must succeed; its standard output. */
export function podman(args: readonly string[], options: { cwd?: string } = {}): Promise<string> {
	return mustRun("podman", args, options);
}

/** Whether Podman is installed and answers. */
export async function isPodmanAvailable(): Promise<boolean> {
	try {
		return (await runCommand("podman", ["--version"])).code === 0;
	} catch {
		return false;
	}
}

/** Whether the local image store holds `name`. */
export async function imageExists(name: string): Promise<boolean> {
	return (await runCommand("podman", ["image", "exists", name])).code === 0;
}

/**
 * Removes containers (with their anonymous volumes), volumes, networks or images by name, ignoring
 * those already gone.
 */
export async function removeQuietly(
	kind: "container" | "volume" | "network" | "image",
	names: readonly string[],
): Promise<void> {
	if (names.length === 0) return;
	const options = kind === "container" ? ["--force", "--volumes"] : ["--force"];
	await runCommand("podman", [kind, "rm", ...options, ...names]);
}
