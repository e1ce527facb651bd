/** Thrown by `readLimitedBody` when a body is larger than allowed; the read has been cancelled. */
export class BodyTooLargeError extends Error {
	readonly maxBytes: number;

	constructor(maxBytes: number) {
		super(`The response body is larger than ${maxBytes} bytes`);
		this.name = "BodyTooLargeError";
		this.maxBytes = maxBytes;
	}
}

/**
 * Reads a response body, counting bytes as they arrive and cancelling the stream as soon as it
 * passes `maxBytes`, so a server that lies about (or omits) Content-Length cannot fill memory.
 */
export async function readLimitedBody(
	response: Response,
	maxBytes: number,
	/** Sees each chunk as it arrives (a stream of server-sent events read as it comes). */
	onChunk?: (chunk: Uint8Array) => void,
): Promise<Uint8Array> {
	const declared = Number(response.headers.get("content-length") ?? Number.NaN);
	if (Number.isFinite(declared) && declared > maxBytes) {
		await cancelBody(response);
		throw new BodyTooLargeError(maxBytes);
	}
	if (!response.body) return new Uint8Array(0);
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.byteLength;
		if (total > maxBytes) {
			await reader.cancel().catch(() => undefined);
			throw new BodyTooLargeError(maxBytes);
		}
		chunks.push(value);
		onChunk?.(value);
	}
	const data = new Uint8Array(total);
	let offset = 0;
	for (const chunk of chunks) {
		data.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return data;
}

/** Releases a body we will not read, so its connection can be reused or closed. */
export async function cancelBody(response: Response): Promise<void> {
	await response.body?.cancel().catch(() => undefined);
}
