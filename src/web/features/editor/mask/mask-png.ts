// The mask as the API takes it: a greyscale PNG at the source's pixel size, white where the image
// may change, black where it must stay, grey for a soft edge. Encoded here rather than through a
// canvas, so the bytes sent are exactly the mask (a canvas may premultiply or colour-manage them).

import type { Mask } from "./mask-brush";

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let index = 0; index < 256; index++) {
		let crc = index;
		for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
		table[index] = crc >>> 0;
	}
	return table;
})();

function crc32(bytes: Uint8Array): number {
	let crc = 0xffffffff;
	for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	for (let index = 0; index < 4; index++) out[4 + index] = type.charCodeAt(index);
	out.set(data, 8);
	view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
	return out;
}

async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
	// "deflate" is zlib's format, which PNG's IDAT holds.
	const body = new Response(bytes).body;
	if (!body) throw new Error("no stream to compress the mask through");
	const stream = body.pipeThrough(new CompressionStream("deflate"));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The mask as a PNG file's bytes: 8-bit greyscale, one filter byte (none) a row. */
export async function encodeMaskPng(mask: Mask): Promise<Uint8Array<ArrayBuffer>> {
	const header = new Uint8Array(13);
	const headerView = new DataView(header.buffer);
	headerView.setUint32(0, mask.width);
	headerView.setUint32(4, mask.height);
	header[8] = 8; // bits per sample
	header[9] = 0; // greyscale
	const rows = new Uint8Array((mask.width + 1) * mask.height);
	for (let y = 0; y < mask.height; y++) {
		rows.set(mask.values.subarray(y * mask.width, (y + 1) * mask.width), y * (mask.width + 1) + 1);
	}
	const signature = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
	const parts = [
		signature,
		chunk("IHDR", header),
		chunk("IDAT", await deflate(rows)),
		chunk("IEND", new Uint8Array()),
	];
	const file = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		file.set(part, offset);
		offset += part.length;
	}
	return file;
}
