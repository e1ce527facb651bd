// What restore lets PGlite unpack: the database's tarball as backup writes it (PGlite's
// dumpDataDir), files and folders under the data folder and nothing else.

const BLOCK = 512;
const REGULAR_FILE = new Set(["0", "\0"]);
const FOLDER = "5";

/** What each tar type that is not a file or a folder is, for the problem that names it. */
const OTHER_TYPES: Record<string, string> = {
	"1": "a hard link",
	"2": "a symbolic link",
	"3": "a character device",
	"4": "a block device",
	"6": "a named pipe",
};

function readText(block: Uint8Array, offset: number, length: number): string {
	const field = block.subarray(offset, offset + length);
	const end = field.indexOf(0);
	return new TextDecoder().decode(end < 0 ? field : field.subarray(0, end));
}

/**
 * Whether an entry stays inside the data folder. PGlite names its entries from the data folder's
 * root (`/PG_VERSION`) and unpacks each under it, so only a `..` can lead out.
 */
function isInside(name: string): boolean {
	return !name.split("/").includes("..");
}

/**
 * Every problem with the entries of a database tarball: a link, a device or any entry that is not
 * a plain file or folder, and a name that leads out of the data folder.
 * An empty list means PGlite may unpack it.
 */
export function findArchiveProblems(tar: Uint8Array): string[] {
	const problems: string[] = [];
	let offset = 0;
	while (offset + BLOCK <= tar.length) {
		const header = tar.subarray(offset, offset + BLOCK);
		if (header.every((byte) => byte === 0)) return problems;
		const isUstar = readText(header, 257, 5) === "ustar";
		const prefix = isUstar ? readText(header, 345, 155) : "";
		const name = prefix ? `${prefix}/${readText(header, 0, 100)}` : readText(header, 0, 100);
		const type = String.fromCharCode(header[156] ?? 0);
		const size = Number.parseInt(readText(header, 124, 12).trim() || "0", 8);
		if (!Number.isFinite(size) || size < 0) {
			problems.push(`the entry ${name} has no readable size`);
			return problems;
		}
		if (!REGULAR_FILE.has(type) && type !== FOLDER) {
			const link = readText(header, 157, 100);
			problems.push(
				`${name} is ${OTHER_TYPES[type] ?? `an entry of type ${JSON.stringify(type)}`}${link ? ` (to ${link})` : ""}: the database holds only files and folders`,
			);
		}
		if (!isInside(name)) problems.push(`${name} leads out of the data folder`);
		offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
	}
	return problems;
}
