import { createServer, type RequestListener } from "node:http";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { ProviderError } from "../providers/types";
import { type DownloadImageOptions, downloadImage } from "./download-image";

const PNG = new Uint8Array(
	await sharp({ create: { width: 4, height: 3, channels: 3, background: "#3366cc" } })
		.png()
		.toBuffer(),
);
const WEBP = new Uint8Array(
	await sharp({ create: { width: 4, height: 3, channels: 3, background: "#cc6633" } })
		.webp()
		.toBuffer(),
);
const MAX_BYTES = 1_000;

type TestServer = { origin: string; host: string; hits: (path: string) => number };

const routes: Record<string, RequestListener> = {
	"/ok.png": (_request, response) => {
		response.writeHead(200, { "content-type": "image/png", "content-length": PNG.byteLength });
		response.end(PNG);
	},
	// A CDN that does not know what it serves: the bytes decide.
	"/photo.bin": (_request, response) => {
		response.writeHead(200, { "content-type": "application/octet-stream" });
		response.end(WEBP);
	},
	"/fake.png": (_request, response) => {
		response.writeHead(200, { "content-type": "image/png" });
		response.end("<html><body>Sign in to continue</body></html>");
	},
	"/missing.png": (_request, response) => {
		response.writeHead(404, { "content-type": "text/plain" });
		response.end("not found");
	},
	"/broken.png": (_request, response) => {
		response.writeHead(500);
		response.end("internal error");
	},
	"/busy.png": (_request, response) => {
		response.writeHead(429, { "retry-after": "7" });
		response.end();
	},
	"/declared-large.png": (_request, response) => {
		response.writeHead(200, { "content-type": "image/png", "content-length": MAX_BYTES * 2 });
		response.end(new Uint8Array(MAX_BYTES * 2));
	},
	// Streams PNG-looking bytes without Content-Length and never ends: only a cap counted during the
	// read can stop it (the test's timeout is far longer than the test).
	"/endless.png": (_request, response) => {
		response.writeHead(200, { "content-type": "image/png" });
		response.write(PNG);
		const timer = setInterval(() => response.write(new Uint8Array(256)), 5);
		response.on("close", () => clearInterval(timer));
	},
	"/hang.png": () => {
		// Never answers.
	},
	"/hang-body.png": (_request, response) => {
		response.writeHead(200, { "content-type": "image/png" });
		response.write(PNG.subarray(0, 8));
	},
	"/redirect-ok": (_request, response) => {
		response.writeHead(302, { location: "/ok.png" });
		response.end();
	},
	"/redirect-metadata": (_request, response) => {
		response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
		response.end();
	},
	"/redirect-ftp": (_request, response) => {
		response.writeHead(301, { location: "ftp://files.example.com/image.png" });
		response.end();
	},
	"/redirect-loop": (_request, response) => {
		response.writeHead(307, { location: "/redirect-loop" });
		response.end();
	},
};

const server = await startTestServer(routes);

function optionsFor(overrides: Partial<DownloadImageOptions> = {}): DownloadImageOptions {
	return { maxBytes: MAX_BYTES, timeoutMs: 10_000, allowPrivateHosts: [server.host], ...overrides };
}

describe("downloadImage", () => {
	it("downloads an image and reports the type sniffed from its bytes", async () => {
		const image = await downloadImage(`${server.origin}/ok.png`, optionsFor());
		expect(image.contentType).toBe("image/png");
		expect(image.data).toEqual(PNG);

		const undeclared = await downloadImage(`${server.origin}/photo.bin`, optionsFor());
		expect(undeclared.contentType).toBe("image/webp");
		expect(undeclared.data).toEqual(WEBP);
	});

	it("refuses content that is not an image even when it is declared image/png", async () => {
		const error = await catchProviderError(
			downloadImage(`${server.origin}/fake.png`, optionsFor()),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/is not an image \(declared image\/png/);
	});

	it("fails without retry when the image URL is not found", async () => {
		const error = await catchProviderError(
			downloadImage(`${server.origin}/missing.png`, optionsFor()),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/Image URL not found \(HTTP 404\)/);
		expect(error.userMessage).toBe("Generation failed");
	});

	it("retries a server error", async () => {
		const error = await catchProviderError(
			downloadImage(`${server.origin}/broken.png`, optionsFor()),
		);
		expect(error.retryable).toBe(true);
		expect(error.message).toMatch(/HTTP 500/);
	});

	it("retries 429 after the server's Retry-After", async () => {
		const error = await catchProviderError(
			downloadImage(`${server.origin}/busy.png`, optionsFor()),
		);
		expect(error.retryable).toBe(true);
		expect(error.retryAfterMs).toBe(7_000);
	});

	it("refuses a body declared larger than the cap", async () => {
		const error = await catchProviderError(
			downloadImage(`${server.origin}/declared-large.png`, optionsFor()),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/larger than 1000 bytes/);
	});

	it("stops reading a body without Content-Length once it passes the cap", async () => {
		const error = await catchProviderError(
			downloadImage(`${server.origin}/endless.png`, optionsFor({ timeoutMs: 60_000 })),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/larger than 1000 bytes/);
	});

	it("times out on a server that never answers, and on one that stalls mid-body", async () => {
		const silent = await catchProviderError(
			downloadImage(`${server.origin}/hang.png`, optionsFor({ timeoutMs: 300 })),
		);
		expect(silent.retryable).toBe(true);
		expect(silent.message).toMatch(/timed out after 300 ms/);

		const stalled = await catchProviderError(
			downloadImage(`${server.origin}/hang-body.png`, optionsFor({ timeoutMs: 300 })),
		);
		expect(stalled.retryable).toBe(true);
		expect(stalled.message).toMatch(/timed out after 300 ms/);
	}, 15_000);

	it("rejects with the caller's reason when the caller aborts", async () => {
		const controller = new AbortController();
		const download = downloadImage(
			`${server.origin}/hang.png`,
			optionsFor({ signal: controller.signal }),
		);
		const reason = new Error("generation cancelled");
		controller.abort(reason);
		await expect(download).rejects.toBe(reason);
	});

	it("refuses a private address unless its host is allowed", async () => {
		const error = await catchProviderError(
			downloadImage(`${server.origin}/ok.png`, optionsFor({ allowPrivateHosts: [] })),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/127\.0\.0\.1 is on a private network/);

		const otherPort = await catchProviderError(
			downloadImage(`${server.origin}/ok.png`, optionsFor({ allowPrivateHosts: ["127.0.0.1:1"] })),
		);
		expect(otherPort.message).toMatch(/private network/);

		const byHostname = await downloadImage(
			`${server.origin}/ok.png`,
			optionsFor({ allowPrivateHosts: ["127.0.0.1"] }),
		);
		expect(byHostname.contentType).toBe("image/png");
	});

	it("refuses a hostname that resolves to the cloud metadata address or any private one", async () => {
		const metadata = await catchProviderError(
			downloadImage("http://images.example.test/cat.png", {
				...optionsFor(),
				resolveHost: async () => ["169.254.169.254"],
			}),
		);
		expect(metadata.retryable).toBe(false);
		expect(metadata.message).toMatch(/images\.example\.test is on a private network/);

		for (const addresses of [
			["93.184.215.14", "10.1.2.3"],
			["::ffff:127.0.0.1"],
			["fd00::1"],
			// The same rule as webhooks: translation prefixes lead to the IPv4 address inside.
			["64:ff9b::a9fe:a9fe"],
			["2002:a00:1::"],
			["::ffff:0:7f00:1"],
			["fec0::1"],
			["198.18.0.1"],
		]) {
			const error = await catchProviderError(
				downloadImage("http://images.example.test/cat.png", {
					...optionsFor(),
					resolveHost: async () => addresses,
				}),
			);
			expect(error.message).toMatch(/private network/);
		}
	});

	it("downloads from a hostname that resolves to public addresses only", async () => {
		const requested: string[] = [];
		// Stands in for the network: the public host is served by the local test server.
		const fetchThroughTestServer: typeof fetch = (input, init) => {
			const url = new URL(input instanceof Request ? input.url : input);
			requested.push(url.href);
			return fetch(`${server.origin}${url.pathname}`, init);
		};
		const image = await downloadImage("https://images.example.test/ok.png", {
			...optionsFor({ allowPrivateHosts: [] }),
			resolveHost: async () => ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
			fetch: fetchThroughTestServer,
		});
		expect(image.contentType).toBe("image/png");
		expect(requested).toEqual(["https://images.example.test/ok.png"]);
	});

	it("refuses a host whose DNS answers a public address to the check and a private one to the connection", async () => {
		// DNS rebinding: the first lookup (the check) says public, the connection's lookup says loopback.
		const answers = [["93.184.215.14"], ["127.0.0.1"]];
		const port = new URL(server.origin).port;
		const hitsBefore = server.hits("/ok.png");
		const error = await catchProviderError(
			downloadImage(`http://rebinding.example:${port}/ok.png`, {
				...optionsFor({ allowPrivateHosts: [] }),
				resolveHost: async () => answers.shift() ?? ["127.0.0.1"],
			}),
		);
		expect(error.message).toMatch(/private address \(127\.0\.0\.1\)/);
		expect(server.hits("/ok.png")).toBe(hitsBefore);
	});

	it("connects through the same checked lookup when the host resolves to an allowed private server", async () => {
		const port = new URL(server.origin).port;
		const image = await downloadImage(`http://gpu-box.example:${port}/ok.png`, {
			...optionsFor({ allowPrivateHosts: [`gpu-box.example:${port}`] }),
			resolveHost: async () => ["127.0.0.1"],
		});
		expect(image.contentType).toBe("image/png");
	});

	it("matches allowed hosts written as a hostname, host:port or IPv6 address", async () => {
		// Stands in for the network: every host is served by the local test server.
		const fetchThroughTestServer: typeof fetch = (input, init) => {
			const url = new URL(input instanceof Request ? input.url : input);
			return fetch(`${server.origin}${url.pathname}`, init);
		};
		const download = (url: string, allowPrivateHosts: string[]) =>
			downloadImage(url, {
				...optionsFor({ allowPrivateHosts }),
				fetch: fetchThroughTestServer,
				resolveHost: async () => ["127.0.0.1"],
			});

		await expect(download("http://[::1]:8188/ok.png", ["::1"])).resolves.toBeDefined();
		await expect(download("http://[::1]:8188/ok.png", ["[::1]:8188"])).resolves.toBeDefined();
		await expect(
			download("http://localhost:8188/ok.png", ["LocalHost:8188"]),
		).resolves.toBeDefined();
		await expect(download("http://10.0.0.5/ok.png", ["10.0.0.5:80"])).resolves.toBeDefined();
		for (const [url, allowed] of [
			["http://10.0.0.5/ok.png", "10.0.0.5:8080"],
			["http://[::1]:8188/ok.png", "[::1]:9000"],
			["http://localhost:8188/ok.png", "127.0.0.1:8188"],
		] as const) {
			const error = await catchProviderError(download(url, [allowed]));
			expect(error.message).toMatch(/private network/);
		}
	});

	it("follows a redirect on an allowed host", async () => {
		const image = await downloadImage(`${server.origin}/redirect-ok`, optionsFor());
		expect(image.data).toEqual(PNG);
	});

	it("refuses a redirect to a private address or another scheme", async () => {
		const metadata = await catchProviderError(
			downloadImage(`${server.origin}/redirect-metadata`, optionsFor()),
		);
		expect(metadata.retryable).toBe(false);
		expect(metadata.message).toMatch(/169\.254\.169\.254 is on a private network/);

		const ftp = await catchProviderError(
			downloadImage(`${server.origin}/redirect-ftp`, optionsFor()),
		);
		expect(ftp.retryable).toBe(false);
		expect(ftp.message).toMatch(/scheme ftp:/);
	});

	it("gives up after three redirects", async () => {
		const before = server.hits("/redirect-loop");
		const error = await catchProviderError(
			downloadImage(`${server.origin}/redirect-loop`, optionsFor()),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/redirected more than 3 times/);
		expect(server.hits("/redirect-loop") - before).toBe(4);
	});

	it("refuses URLs that are not http or https", async () => {
		for (const url of ["file:///etc/passwd", "ftp://files.example.com/a.png", "data:image/png,x"]) {
			const error = await catchProviderError(downloadImage(url, optionsFor()));
			expect(error.retryable).toBe(false);
			expect(error.message).toMatch(/Refused image URL with scheme/);
		}
		const invalid = await catchProviderError(downloadImage("not a url", optionsFor()));
		expect(invalid.message).toMatch(/Not a valid image URL/);
	});
});

async function catchProviderError(promise: Promise<unknown>): Promise<ProviderError> {
	const error = await promise.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	if (!(error instanceof ProviderError)) {
		throw new Error(`Expected a ProviderError, got ${String(error)}`);
	}
	return error;
}

async function startTestServer(table: Record<string, RequestListener>): Promise<TestServer> {
	const hits = new Map<string, number>();
	const server = createServer((request, response) => {
		const path = new URL(request.url ?? "/", "http://localhost").pathname;
		hits.set(path, (hits.get(path) ?? 0) + 1);
		const route = table[path];
		if (route) return route(request, response);
		response.writeHead(404);
		response.end();
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	if (address === null || typeof address === "string") throw new Error("Test server has no port");
	const { port } = address;
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});
	return {
		origin: `http://127.0.0.1:${port}`,
		host: `127.0.0.1:${port}`,
		hits: (path) => hits.get(path) ?? 0,
	};
}
