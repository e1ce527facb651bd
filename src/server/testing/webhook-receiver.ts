import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got. */
export type ReceivedWebhook = {
	path: string;
	headers: Record<string, string>;
	body: string;
};

/** How the receiver answers one request: a status (and body), or never. */
export type ReceiverAnswer =
	| { status: number; body?: string; headers?: Record<string, string> }
	| { hang: true };

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
	return Object.fromEntries(
		Object.entries(headers).flatMap(([name, value]) =>
			value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value]],
		),
	);
}

/**
 * A webhook receiver on 127.0.0.1 that records every request and answers with `answer(n)` for the
 * n-th request (from 1); 200 by default.
 */
export async function startWebhookReceiver(
	answer: (requestNumber: number, request: ReceivedWebhook) => ReceiverAnswer = () => ({
		status: 200,
	}),
) {
	const received: ReceivedWebhook[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const entry = {
				path: request.url ?? "/",
				headers: flattenHeaders(request.headers),
				body: Buffer.concat(chunks).toString("utf8"),
			};
			received.push(entry);
			const planned = answer(received.length, entry);
			if ("hang" in planned) return;
			response.writeHead(planned.status, planned.headers ?? {});
			response.end(planned.body ?? "");
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hooks`,
		origin: `http://127.0.0.1:${port}`,
		received: () => [...received],
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
