import { readdir } from "node:fs/promises";

/** True when `folder` does not exist or holds nothing: a backup or a restore may write there. */
export async function isEmptyOrNew(folder: string): Promise<boolean> {
	try {
		return (await readdir(folder)).length === 0;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return true;
		if (code === "ENOTDIR") return false;
		throw error;
	}
}
