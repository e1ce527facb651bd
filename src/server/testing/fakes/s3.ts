import { createServer, type IncomingMessage } from "node:http";

export type FakeS3 = {
	endpoint: string;
	bucket: string;
	objects: Map<string, { body: Buffer; contentType: string }>;
	requestCount(): number;
	stop(): Promise<void>;
};

function readBody(request: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => resolve(Buffer.concat(chunks)));
		request.on("error", reject);
	});
}

function escapeXml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function errorXml(code: string, message: string): string {
	return `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/**
 * A small S3-compatible server on 127.0.0.1 (path-style): PutObject, GetObject, ListObjectsV2 with
 * continuation, DeleteObjects. It checks that requests are SigV4-signed with the expected access key.
 */
export async function startFakeS3(options: {
	bucket: string;
	accessKeyId: string;
	/** Objects per ListObjectsV2 page, small in tests to exercise continuation. */
	pageSize?: number;
}): Promise<FakeS3> {
	const objects = new Map<string, { body: Buffer; contentType: string }>();
	let requests = 0;
	const pageSize = options.pageSize ?? 1000;
	const server = createServer(async (request, response) => {
		requests += 1;
		const url = new URL(request.url ?? "/", "http://127.0.0.1");
		const authorization = request.headers.authorization ?? "";
		const send = (status: number, body: string | Buffer, contentType = "application/xml") => {
			response.writeHead(status, { "content-type": contentType });
			response.end(body);
		};
		if (!authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${options.accessKeyId}/`)) {
			send(403, errorXml("AccessDenied", "Access Denied"));
			return;
		}
		const [, bucket, ...keyParts] = url.pathname.split("/");
		if (bucket !== options.bucket) {
			send(404, errorXml("NoSuchBucket", "The specified bucket does not exist"));
			return;
		}
		const key = decodeURIComponent(keyParts.join("/"));
		const body = await readBody(request);
		if (request.method === "PUT" && key) {
			objects.set(key, {
				body,
				contentType: request.headers["content-type"] ?? "application/octet-stream",
			});
			response.writeHead(200, { etag: `"${body.length}"` });
			response.end();
			return;
		}
		if (request.method === "GET" && key) {
			const object = objects.get(key);
			if (!object) {
				send(404, errorXml("NoSuchKey", "The specified key does not exist."));
				return;
			}
			send(200, object.body, object.contentType);
			return;
		}
		if (request.method === "GET" && url.searchParams.get("list-type") === "2") {
			const prefix = url.searchParams.get("prefix") ?? "";
			const all = [...objects.keys()].filter((candidate) => candidate.startsWith(prefix)).sort();
			// Like S3, the token marks a key, not an offset, so deleting listed keys shifts nothing.
			const after = url.searchParams.get("continuation-token");
			const remaining = after === null ? all : all.filter((candidate) => candidate > after);
			const page = remaining.slice(0, pageSize);
			const isTruncated = remaining.length > pageSize;
			send(
				200,
				`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><IsTruncated>${isTruncated}</IsTruncated>${
					isTruncated
						? `<NextContinuationToken>${escapeXml(page.at(-1) ?? "")}</NextContinuationToken>`
						: ""
				}${page.map((entry) => `<Contents><Key>${escapeXml(entry)}</Key></Contents>`).join("")}</ListBucketResult>`,
			);
			return;
		}
		if (request.method === "POST" && url.searchParams.has("delete")) {
			for (const match of body.toString("utf8").matchAll(/<Key>([^<]*)<\/Key>/g)) {
				objects.delete(
					(match[1] ?? "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"),
				);
			}
			send(200, `<?xml version="1.0" encoding="UTF-8"?><DeleteResult></DeleteResult>`);
			return;
		}
		send(400, errorXml("NotImplemented", `${request.method} ${url.pathname}${url.search}`));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	const port = address && typeof address === "object" ? address.port : 0;
	return {
		endpoint: `http://127.0.0.1:${port}`,
		bucket: options.bucket,
		objects,
		requestCount: () => requests,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
