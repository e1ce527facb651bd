import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The embedded setup needs no configuration, so its signing secret is made on first start and kept
 * beside the database; deleting it signs everyone out.
 */
export async function readOrCreateSecret(dataDir: string): Promise<string> {
	const secretPath = path.join(dataDir, "auth-secret");
	const existing = await readFile(secretPath, "utf8").catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") return undefined;
		throw error;
	});
	if (existing && existing.trim().length >= 32) return existing.trim();
	await mkdir(dataDir, { recursive: true });
	const secret = randomBytes(48).toString("base64url");
	await writeFile(secretPath, `${secret}\n`, { mode: 0o600 });
	return secret;
}
