import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { z } from "zod";
import { GenerationPageSchema, GenerationSchema } from "../../shared/generations/generations";
import { waitFor } from "./server-process";

/** `npm run backup` and `npm run restore` bundled as `npm run build` does, in a temp folder. */
export async function buildBackupCommands(): Promise<{
	backup: string;
	restore: string;
	remove(): Promise<void>;
}> {
	// Inside the project, so the bundles resolve their dependencies from node_modules.
	await mkdir(".tmp", { recursive: true });
	const folder = await mkdtemp(path.join(".tmp", "backup-commands-"));
	const bundle = async (name: string) => {
		const outfile = path.join(folder, "server", `${name}.js`);
		await build({
			entryPoints: [`src/server/backup/${name}-cli.ts`],
			outfile,
			bundle: true,
			platform: "node",
			format: "esm",
			packages: "external",
			logLevel: "error",
		});
		return outfile;
	};
	return {
		backup: await bundle("backup"),
		restore: await bundle("restore"),
		remove: () => rm(folder, { recursive: true, force: true }),
	};
}

export type CommandResult = { code: number | null; stdout: string; stderr: string };

/** Runs a bundled command as its own process with `env` (and PATH) until it exits. */
export function runCommand(
	entry: string,
	args: readonly string[],
	env: Record<string, string>,
): Promise<CommandResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [entry, ...args], {
			cwd: process.cwd(),
			env: { PATH: process.env.PATH ?? "", ...env },
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
		child.once("exit", (code) => resolve({ code, stdout, stderr }));
	});
}

export type Session = Record<string, string>;

const CreatedSchema = z.object({ id: z.string() });

/** Asks for a generation of `count` images; returns its id. */
export async function requestGenerationOn(
	origin: string,
	session: Session,
	prompt: string,
	count = 2,
): Promise<string> {
	const response = await fetch(`${origin}/api/generations`, {
		method: "POST",
		headers: session,
		body: JSON.stringify({ prompt, aspectRatio: "--ar 1:1", count }),
	});
	if (response.status !== 201) throw new Error(`creating answered ${response.status}`);
	return CreatedSchema.parse(await response.json()).id;
}

/** Waits until the generation has completed; a failed one ends the wait. */
export async function waitForCompletionOn(origin: string, session: Session, id: string) {
	return waitFor(`generation ${id} to complete`, async () => {
		const response = await fetch(`${origin}/api/generations/${id}`, { headers: session });
		const generation = GenerationSchema.parse(await response.json());
		if (generation.status === "failed")
			throw new Error(`exited: ${id} failed: ${generation.error}`);
		return generation.status === "completed" ? generation : undefined;
	});
}

/** Every generation in the viewer's history, following the pages. */
export async function listWholeHistory(origin: string, session: Session) {
	const items: z.infer<typeof GenerationSchema>[] = [];
	let cursor: string | null = null;
	do {
		const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
		const response = await fetch(`${origin}/api/generations?limit=100${query}`, {
			headers: session,
		});
		if (response.status !== 200) throw new Error(`the history answered ${response.status}`);
		const page = GenerationPageSchema.parse(await response.json());
		items.push(...page.items);
		cursor = page.nextCursor;
	} while (cursor);
	return items;
}

/** Every URL of a generation's images: originals, display copies, thumbnails. */
export function imageUrlsOf(generation: z.infer<typeof GenerationSchema>): string[] {
	return generation.images.flatMap((image) => [
		image.url,
		...(image.displayUrl ? [image.displayUrl] : []),
		image.thumbnailUrl,
	]);
}

/** An image's bytes as the API serves them to `session`. */
export async function readImageOn(origin: string, session: Session, url: string): Promise<Buffer> {
	const response = await fetch(`${origin}${url}`, { headers: session });
	if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
	return Buffer.from(await response.arrayBuffer());
}
