import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type Entry, fromBuffer, type ZipFile } from "yauzl";
import { createZipStream, type ZipEntry } from "./zip-stream";

type ReadEntry = { entry: Entry; bytes: Buffer };

/** Every entry of a ZIP as yauzl reads it (it checks sizes and ZIP64 records as it goes). */
async function readEntries(archive: Uint8Array): Promise<ReadEntry[]> {
	const zip = await new Promise<ZipFile>((resolve, reject) =>
		fromBuffer(Buffer.from(archive), { lazyEntries: true }, (error, file) =>
			error ? reject(error) : resolve(file),
		),
	);
	const entries: ReadEntry[] = [];
	await new Promise<void>((resolve, reject) => {
		zip.on("error", reject);
		zip.on("end", () => resolve());
		zip.on("entry", (entry: Entry) => {
			zip.openReadStream(entry, (error, stream) => {
				if (error) return reject(error);
				const chunks: Buffer[] = [];
				stream.on("data", (chunk: Buffer) => chunks.push(chunk));
				stream.on("error", reject);
				stream.on("end", () => {
					entries.push({ entry, bytes: Buffer.concat(chunks) });
					zip.readEntry();
				});
			});
		});
		zip.readEntry();
	});
	return entries;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

function createEntry(name: string, bytes: Uint8Array, overrides: Partial<ZipEntry> = {}): ZipEntry {
	return {
		name,
		modifiedAt: new Date("2025-03-04T05:06:08Z"),
		isCompressed: false,
		read: async () => bytes,
		...overrides,
	};
}

const PICTURE = new Uint8Array(100_000).map((_, index) => (index * 7919) % 256);
const TEXT = Buffer.from(
	`${JSON.stringify({ prompt: "a fox in the snow" }, null, 2)}\n`.repeat(50),
);

describe("createZipStream", () => {
	it("writes stored and deflated files that unzip to the same bytes, with their CRC and time", async () => {
		const archive = await readAll(
			createZipStream([
				createEntry("2025-03-04-fox/fox-1.png", PICTURE),
				createEntry("2025-03-04-fox/generation.json", TEXT, { isCompressed: true }),
				createEntry("café/ünïcode.txt", Buffer.from("é")),
			]),
		);
		const entries = await readEntries(archive);

		expect(entries.map(({ entry }) => entry.fileName)).toEqual([
			"2025-03-04-fox/fox-1.png",
			"2025-03-04-fox/generation.json",
			"café/ünïcode.txt",
		]);
		const [picture, text, unicode] = entries;
		expect(picture?.bytes.equals(Buffer.from(PICTURE))).toBe(true);
		expect(picture?.entry.compressionMethod).toBe(0);
		expect(picture?.entry.crc32).toBe(crc32(PICTURE));
		expect(text?.bytes.equals(TEXT)).toBe(true);
		expect(text?.entry.compressionMethod).toBe(8);
		expect(text?.entry.compressedSize).toBeLessThan(TEXT.length / 10);
		expect(text?.entry.crc32).toBe(crc32(TEXT));
		expect(unicode?.bytes.toString()).toBe("é");
		expect(picture?.entry.getLastModDate().toISOString()).toBe("2025-03-04T05:06:08.000Z");
	});

	it("writes ZIP64 records for files past the limit, which readers follow", async () => {
		const archive = await readAll(
			createZipStream(
				[
					createEntry("a.png", PICTURE),
					createEntry("b.png", PICTURE),
					createEntry("c.json", TEXT, { isCompressed: true }),
				],
				{ zip64From: 150_000 },
			),
		);
		// The end record points to the ZIP64 one instead of holding the offsets itself.
		const end = archive.length - 22;
		const view = Buffer.from(archive);
		expect(view.readUInt32LE(end)).toBe(0x06054b50);
		expect(view.readUInt32LE(end + 16)).toBe(0xffffffff);
		expect(view.readUInt32LE(end - 20)).toBe(0x07064b50);

		const entries = await readEntries(archive);
		expect(entries.map(({ entry }) => entry.fileName)).toEqual(["a.png", "b.png", "c.json"]);
		expect(entries[1]?.bytes.equals(Buffer.from(PICTURE))).toBe(true);
		expect(entries[2]?.bytes.equals(TEXT)).toBe(true);
	});

	it("reads one file ahead of the reader, and one file at a time", async () => {
		const asked: string[] = [];
		let reading = 0;
		let mostAtOnce = 0;
		const entries = ["a", "b", "c", "d"].map((name) =>
			createEntry(name, PICTURE, {
				read: async () => {
					asked.push(name);
					reading += 1;
					mostAtOnce = Math.max(mostAtOnce, reading);
					await new Promise((resolve) => setTimeout(resolve, 5));
					reading -= 1;
					return PICTURE;
				},
			}),
		);
		const reader = createZipStream(entries).getReader();
		await reader.read();
		await new Promise((resolve) => setTimeout(resolve, 30));
		expect(asked).toEqual(["a", "b"]);
		await reader.read();
		await reader.read();
		await new Promise((resolve) => setTimeout(resolve, 30));
		expect(asked).toEqual(["a", "b", "c"]);
		await reader.cancel();
		expect(mostAtOnce).toBe(1);
	});

	it("drops a file read ahead for a download that was cancelled, even when the read fails", async () => {
		const reader = createZipStream([
			createEntry("a.png", PICTURE),
			createEntry("b.png", PICTURE, {
				read: () => Promise.reject(new Error("storage is unavailable")),
			}),
		]).getReader();
		await reader.read();
		await reader.cancel();
		// An unhandled rejection would fail the run.
		await new Promise((resolve) => setTimeout(resolve, 20));
	});

	it("errors the stream when a file cannot be read, instead of ending the archive", async () => {
		const stream = createZipStream([
			createEntry("a.png", PICTURE),
			createEntry("b.png", PICTURE, {
				read: () => Promise.reject(new Error("storage is unavailable")),
			}),
		]);
		await expect(readAll(stream)).rejects.toThrow("storage is unavailable");
	});

	it("refuses names that would unpack outside the folder they are unpacked in", () => {
		for (const name of ["../escape.png", "/etc/passwd", "a/../../b", "a\\b", ""]) {
			expect(() => createZipStream([createEntry(name, PICTURE)]), name).toThrow(
				"Invalid file name",
			);
		}
	});
});
