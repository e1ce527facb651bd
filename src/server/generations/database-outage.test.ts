import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Server as NetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPostgresDatabase } from "../db/database";
import { createSilentLogger } from "../logging/logger";
import { createLocalProvider } from "../providers/local/local-provider";
import { assembleServer, type Server } from "../server";
import { createLocalStorage } from "../storage/local-storage";
import { createTestUser } from "../testing/test-server";
import { createTestSettings } from "../testing/test-settings";

const postgresUrl = inject("postgresUrl");

/** A TCP hop to PostgreSQL that the test can cut and restore, as a network failure would. */
async function startCuttableProxy(target: URL) {
	const sockets = new Set<Socket>();
	let listener: NetServer | undefined;
	let port = 0;
	const open = () =>
		new Promise<void>((resolve) => {
			if (listener?.listening) {
				resolve();
				return;
			}
			listener = createServer((client) => {
				const upstream = connect(Number(target.port), target.hostname);
				for (const socket of [client, upstream]) {
					sockets.add(socket);
					socket.on("close", () => sockets.delete(socket));
					socket.on("error", () => {});
				}
				client.pipe(upstream).pipe(client);
			});
			listener.listen(port, "127.0.0.1", () => {
				const address = listener?.address();
				if (address && typeof address === "object") port = address.port;
				resolve();
			});
		});
	await open();
	return {
		get port() {
			return port;
		},
		async cut() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => listener?.close(() => resolve()));
		},
		restore: open,
	};
}

describe.skipIf(!postgresUrl)("when the database goes away mid-use", () => {
	const name = `atelier_outage_${randomUUID().replaceAll("-", "")}`;
	let server: Server;
	let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
	let close: () => Promise<void>;

	beforeAll(async () => {
		const serverUrl = new URL(postgresUrl ?? "");
		const admin = new pg.Client({ connectionString: serverUrl.toString() });
		await admin.connect();
		await admin.query(`CREATE DATABASE ${name} TEMPLATE atelier_template`);
		await admin.end();
		proxy = await startCuttableProxy(serverUrl);
		const proxied = new URL(serverUrl);
		proxied.port = String(proxy.port);
		proxied.pathname = `/${name}`;
		const database = openPostgresDatabase(proxied.toString(), createSilentLogger(), { max: 4 });
		const storageDir = await mkdtemp(path.join(tmpdir(), "atelier-outage-"));
		server = await assembleServer({
			database,
			logger: createSilentLogger(),
			settings: createTestSettings(),
			storage: createLocalStorage(storageDir),
			models: createLocalProvider({ delayMs: 0 }),
			isWorkerEnabled: false,
		});
		close = async () => {
			await server.stop().catch(() => {});
			await database.close().catch(() => {});
			await rm(storageDir, { recursive: true, force: true });
			const cleanup = new pg.Client({ connectionString: serverUrl.toString() });
			await cleanup.connect();
			await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
			await cleanup.end();
		};
	});
	afterAll(async () => {
		await proxy.restore().catch(() => {});
		await close();
	});

	it("answers 503 with the catalogue message, writes nothing, and works again when it returns", async () => {
		const { client } = await createTestUser(server);
		const generate = () =>
			client.request("/api/generations", {
				method: "POST",
				json: { prompt: "during an outage", aspectRatio: "--ar 1:1" },
			});

		await proxy.cut();
		const during = await generate();
		expect(during.status).toBe(503);
		expect(await during.json()).toEqual({
			success: false,
			error: {
				code: "SERVICE_UNAVAILABLE",
				message: "The service is temporarily unavailable. Please try again in a moment.",
			},
		});
		expect((await server.app.request("/api/health")).status).toBe(503);

		await proxy.restore();
		let after = await generate();
		// A connection that broke while idle may fail once more before the pool replaces it.
		if (after.status === 503) after = await generate();
		expect(after.status).toBe(201);
		const page = (await (await client.request("/api/generations")).json()) as { total: number };
		expect(page.total).toBe(1);
	});
});
