import { fromBuffer, type ZipFile } from "yauzl";

/** Every file of a ZIP, by name, with its bytes. */
export async function readZip(bytes: Uint8Array): Promise<Map<string, Buffer>> {
	const zip = await new Promise<ZipFile>((resolve, reject) =>
		fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, file) =>
			error ? reject(error) : resolve(file),
		),
	);
	const files = new Map<string, Buffer>();
	await new Promise<void>((resolve, reject) => {
		zip.on("error", reject);
		zip.on("end", () => resolve());
		zip.on("entry", (entry) => {
			zip.openReadStream(entry, (error, stream) => {
				if (error) return reject(error);
				const chunks: Buffer[] = [];
				stream.on("data", (chunk: Buffer) => chunks.push(chunk));
				stream.on("error", reject);
				stream.on("end", () => {
					files.set(entry.fileName, Buffer.concat(chunks));
					zip.readEntry();
				});
			});
		});
		zip.readEntry();
	});
	return files;
}
