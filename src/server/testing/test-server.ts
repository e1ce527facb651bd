import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { StaticSite } from "../http/static-site";
import { createSilentLogger } from "../logging/logger";
import type { ModelCatalogue } from "../models/model-catalogue";
import { createLocalProvider } from "../providers/local/local-provider";
import type { ImageProvider } from "../providers/types";
import { assembleServer, type Server } from "../server";
import { createLocalStorage } from "../storage/local-storage";
import type { Storage } from "../storage/storage";
import { readResetToken } from "./reset-token";
import { createTestDatabase, type DatabaseKind } from "./test-database";
import {
	createTestSettings,
	TEST_ADMIN_EMAIL,
	TEST_BASE_URL,
	type TestSettingsOverrides,
} from "./test-settings";

export type TestServer = Server & {
	database: Awaited<ReturnType<typeof createTestDatabase>>;
	storage: Storage;
	storageDir: string;
	close(): Promise<void>;
};

export type TestServerOptions = TestSettingsOverrides & {
	provider?: ImageProvider;
	/** Several models (this wins over `provider`). */
	models?: ModelCatalogue;
	/** Another image store than a fresh local folder (the folder is still made and removed). */
	storage?: Storage;
	isWorkerEnabled?: boolean;
	/** The built web app to serve beside the API. */
	site?: StaticSite;
};

/** A real server on a private database and image folder; the local engine renders at once by default. */
export async function createTestServer(
	kind: DatabaseKind,
	options: TestServerOptions = {},
): Promise<TestServer> {
	const {
		provider,
		models,
		isWorkerEnabled,
		site,
		storage: storageOverride,
		...overrides
	} = options;
	const database = await createTestDatabase(kind);
	const storageDir = await mkdtemp(path.join(tmpdir(), "atelier-images-"));
	const storage = storageOverride ?? createLocalStorage(storageDir);
	const server = await assembleServer({
		database,
		logger: createSilentLogger(),
		settings: createTestSettings(overrides),
		storage,
		models: models ?? provider ?? createLocalProvider({ delayMs: 0 }),
		...(isWorkerEnabled === undefined ? {} : { isWorkerEnabled }),
		...(site ? { site } : {}),
	});
	return {
		...server,
		database,
		storage,
		storageDir,
		async close() {
			await server.stop();
			await database.close();
			await rm(storageDir, { recursive: true, force: true });
		},
	};
}

/** A caller with a cookie jar, like a browser: it sends the Origin header Better Auth requires. */
/**
 * One test server for the tests of the describe block that calls it: started before them, closed
 * after them. The getter answers the running server.
 */
export function useTestServer(kind: DatabaseKind, options?: TestServerOptions): () => TestServer {
	let server: TestServer | undefined;
	beforeAll(async () => {
		server = await createTestServer(kind, options);
	});
	afterAll(async () => {
		await server?.close();
	});
	return () => {
		if (!server) throw new Error("The test server starts before the block's tests.");
		return server;
	};
}

export class TestClient {
	private readonly cookies = new Map<string, string>();

	constructor(
		private readonly server: Pick<Server, "app">,
		private readonly clientIp = "203.0.113.10",
	) {}

	get cookieHeader(): string {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
	}

	async request(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
		const headers = new Headers(init.headers);
		if (!headers.has("origin")) headers.set("origin", TEST_BASE_URL);
		headers.set("x-forwarded-for", this.clientIp);
		if (this.cookies.size > 0) headers.set("cookie", this.cookieHeader);
		let body = init.body;
		if (init.json !== undefined) {
			headers.set("content-type", "application/json");
			body = JSON.stringify(init.json);
		}
		const response = await this.server.app.request(path, { ...init, headers, body });
		for (const cookie of response.headers.getSetCookie()) {
			const [pair] = cookie.split(";");
			const separator = pair?.indexOf("=") ?? -1;
			if (!pair || separator < 0) continue;
			const name = pair.slice(0, separator);
			const value = pair.slice(separator + 1);
			if (/max-age=0/i.test(cookie) || value === "") this.cookies.delete(name);
			else this.cookies.set(name, value);
		}
		return response;
	}
}

let userCounter = 0;

/** Registers a person through the real sign-up endpoint and returns a client signed in as them. */
export async function createTestUser(
	server: Pick<Server, "app">,
	overrides: { email?: string; password?: string } = {},
) {
	userCounter += 1;
	const email = overrides.email ?? `person${userCounter}-${Date.now()}@example.com`;
	const password = overrides.password ?? "correct horse battery";
	const client = new TestClient(server);
	const response = await client.request("/api/auth/sign-up/email", {
		method: "POST",
		json: { email, password, name: email.split("@")[0] },
	});
	if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
	const body = (await response.json()) as { user: { id: string } };
	return { client, email, password, userId: body.user.id };
}

/**
 * The administrator as an operator makes them: signs up with ADMIN_EMAIL, then opens the claim
 * link mailed on sign-up and chooses the password there; the client is signed in as them.
 */
export async function createTestAdministrator(
	server: Pick<TestServer, "app" | "database">,
	overrides: { email?: string; password?: string } = {},
) {
	const person = await createTestUser(server, { email: TEST_ADMIN_EMAIL, ...overrides });
	const token = await readResetToken(server, person.userId);
	const response = await person.client.request("/api/auth/reset-password", {
		method: "POST",
		json: { token, newPassword: person.password },
	});
	if (!response.ok) throw new Error(`claim failed: ${response.status} ${await response.text()}`);
	return person;
}
