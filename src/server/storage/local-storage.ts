import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { contentTypeOfExtension } from "../../shared/image-input/image-types";
import { assertValidKey, type Storage } from "./storage";

/** Images as files under one folder; writes go through a temporary file so a reader never sees half an image. */
export function createLocalStorage(root: string): Storage {
	const resolve = (key: string) => {
		assertValidKey(key);
		return path.join(root, ...key.split("/"));
	};
	return {
		kind: "local",
		async put(key, data) {
			const target = resolve(key);
			const temporary = `${target}.${randomUUID()}.tmp`;
			// Twice at most: a delete may remove the emptied folder between our mkdir and our write.
			for (let attempt = 1; ; attempt++) {
				await mkdir(path.dirname(target), { recursive: true });
				try {
					await writeFile(temporary, data);
					break;
				} catch (error) {
					if (attempt >= 2 || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
				}
			}
			await rename(temporary, target);
		},
		async get(key) {
			const target = resolve(key);
			try {
				const data = await readFile(target);
				return {
					data,
					contentType: contentTypeOfExtension(path.extname(target)) ?? "application/octet-stream",
				};
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
				throw error;
			}
		},
		async delete(keys) {
			await Promise.all(keys.map((key) => rm(resolve(key), { force: true })));
		},
		async *listKeys(prefix) {
			const folder = resolve(prefix.replace(/\/+$/, ""));
			const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(
				(error: NodeJS.ErrnoException) => {
					if (error.code === "ENOENT") return [];
					throw error;
				},
			);
			yield entries
				// A write in progress is a temporary file, not yet an object.
				.filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
				.map((entry) =>
					path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
				);
		},
		async deletePrefix(prefix) {
			const folder = prefix.replace(/\/+$/, "");
			await rm(resolve(folder), { recursive: true, force: true });
			// Folders left empty go too, as they would in a bucket, which has no folders of its own.
			let parent = path.dirname(path.resolve(resolve(folder)));
			while (parent.startsWith(`${path.resolve(root)}${path.sep}`)) {
				try {
					await rmdir(parent);
				} catch {
					break;
				}
				parent = path.dirname(parent);
			}
		},
	};
}
