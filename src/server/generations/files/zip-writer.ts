import { crc32, deflateRawSync } from "node:zlib";

// A streaming ZIP writer for archives whose every entry is read whole before it is written (an
// image, a metadata file): its checksum and sizes are known up front, so each local header carries
// them and no data descriptor follows. The checksum is zlib's crc32 (native), not JavaScript's:
// that was what held the archives to a fraction of the speed of reading their files. Zip64 records
// are written where offsets or the number of entries pass the classic format's limits.

/** One file of the archive. */
export type ZipEntry = {
	name: string;
	date: Date;
	data: Buffer;
	/** Deflate it (small text); images are compressed already and stored as they are. */
	compress: boolean;
};

const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;
/** General purpose flag: names are UTF-8. */
const UTF8_NAMES = 0x0800;

/** MS-DOS time and date, as ZIP keeps them (local time, two-second steps, from 1980). */
function dosDateTime(date: Date): { time: number; day: number } {
	const year = Math.max(date.getFullYear(), 1980);
	return {
		time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
		day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
	};
}

type Written = {
	name: Buffer;
	crc: number;
	method: number;
	compressedSize: number;
	size: number;
	time: number;
	day: number;
	offset: number;
};

function localHeader(entry: Written): Buffer {
	const header = Buffer.alloc(30);
	header.writeUInt32LE(0x04034b50, 0);
	header.writeUInt16LE(20, 4);
	header.writeUInt16LE(UTF8_NAMES, 6);
	header.writeUInt16LE(entry.method, 8);
	header.writeUInt16LE(entry.time, 10);
	header.writeUInt16LE(entry.day, 12);
	header.writeUInt32LE(entry.crc, 14);
	header.writeUInt32LE(entry.compressedSize, 18);
	header.writeUInt32LE(entry.size, 22);
	header.writeUInt16LE(entry.name.length, 26);
	header.writeUInt16LE(0, 28);
	return Buffer.concat([header, entry.name]);
}

function centralHeader(entry: Written): Buffer {
	const isFar = entry.offset >= MAX_32;
	// Zip64 extended information: only the local header's offset can pass 4 GB here.
	const extra = isFar ? Buffer.alloc(12) : Buffer.alloc(0);
	if (isFar) {
		extra.writeUInt16LE(0x0001, 0);
		extra.writeUInt16LE(8, 2);
		extra.writeBigUInt64LE(BigInt(entry.offset), 4);
	}
	const header = Buffer.alloc(46);
	header.writeUInt32LE(0x02014b50, 0);
	header.writeUInt16LE(isFar ? 45 : 20, 4);
	header.writeUInt16LE(isFar ? 45 : 20, 6);
	header.writeUInt16LE(UTF8_NAMES, 8);
	header.writeUInt16LE(entry.method, 10);
	header.writeUInt16LE(entry.time, 12);
	header.writeUInt16LE(entry.day, 14);
	header.writeUInt32LE(entry.crc, 16);
	header.writeUInt32LE(entry.compressedSize, 20);
	header.writeUInt32LE(entry.size, 24);
	header.writeUInt16LE(entry.name.length, 28);
	header.writeUInt16LE(extra.length, 30);
	header.writeUInt16LE(0, 32);
	header.writeUInt16LE(0, 34);
	header.writeUInt16LE(0, 36);
	header.writeUInt32LE(0, 38);
	header.writeUInt32LE(isFar ? MAX_32 : entry.offset, 42);
	return Buffer.concat([header, entry.name, extra]);
}

function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
	const parts: Buffer[] = [];
	const isZip64 = count >= MAX_16 || size >= MAX_32 || offset >= MAX_32;
	if (isZip64) {
		const record = Buffer.alloc(56);
		record.writeUInt32LE(0x06064b50, 0);
		record.writeBigUInt64LE(44n, 4);
		record.writeUInt16LE(45, 12);
		record.writeUInt16LE(45, 14);
		record.writeUInt32LE(0, 16);
		record.writeUInt32LE(0, 20);
		record.writeBigUInt64LE(BigInt(count), 24);
		record.writeBigUInt64LE(BigInt(count), 32);
		record.writeBigUInt64LE(BigInt(size), 40);
		record.writeBigUInt64LE(BigInt(offset), 48);
		const locator = Buffer.alloc(20);
		locator.writeUInt32LE(0x07064b50, 0);
		locator.writeUInt32LE(0, 4);
		locator.writeBigUInt64LE(BigInt(offset + size), 8);
		locator.writeUInt32LE(1, 16);
		parts.push(record, locator);
	}
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(Math.min(count, MAX_16), 8);
	end.writeUInt16LE(Math.min(count, MAX_16), 10);
	end.writeUInt32LE(Math.min(size, MAX_32), 12);
	end.writeUInt32LE(Math.min(offset, MAX_32), 16);
	parts.push(end);
	return Buffer.concat(parts);
}

/**
 * The ZIP's bytes, entry by entry, as the entries come: each is read only when the reader of the
 * output asks for more, so one entry at a time is held in memory.
 */
export async function* writeZip(entries: AsyncIterable<ZipEntry>): AsyncGenerator<Buffer> {
	const written: Written[] = [];
	let offset = 0;
	for await (const entry of entries) {
		if (entry.data.length >= MAX_32) throw new Error(`${entry.name} is too large for the archive`);
		const body = entry.compress ? deflateRawSync(entry.data) : entry.data;
		const record: Written = {
			name: Buffer.from(entry.name, "utf8"),
			crc: crc32(entry.data),
			method: entry.compress ? 8 : 0,
			compressedSize: body.length,
			size: entry.data.length,
			...dosDateTime(entry.date),
			offset,
		};
		const header = localHeader(record);
		written.push(record);
		offset += header.length + body.length;
		yield header;
		yield body;
	}
	const central = Buffer.concat(written.map(centralHeader));
	yield central;
	yield endOfCentralDirectory(written.length, central.length, offset);
}
