import { describe, expect, it } from "vitest";
import { ERRORS } from "../../shared/core/errors";
import type { GenerationPage } from "../../shared/generations/generations";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { TEST_BASE_URL } from "../testing/test-settings";

const EVIL = "https://evil.example";
const TRUSTED = "https://studio.example";

/** A request carrying the person's session cookie and exactly the headers given (no default Origin). */
function send(
	server: TestServer,
	cookie: string,
	path: string,
	init: { method: string; headers?: Record<string, string>; body?: string },
) {
	return server.app.request(path, {
		method: init.method,
		headers: { cookie, "x-forwarded-for": "203.0.113.10", ...init.headers },
		...(init.body === undefined ? {} : { body: init.body }),
	});
}

async function expectRefused(response: Response) {
	expect(response.status).toBe(403);
	expect(await response.json()).toEqual({
		success: false,
		error: { code: "FOREIGN_ORIGIN", message: ERRORS.FOREIGN_ORIGIN.message },
	});
}

const body = JSON.stringify({ prompt: "a forged request", aspectRatio: "--ar 1:1" });

describe.each(availableDatabaseKinds())("requests from other sites (%s)", (kind) => {
	it("refuses every unsafe method from a foreign origin, JSON or form-like, and changes nothing", async () => {
		const server = await createTestServer(kind, {
			isWorkerEnabled: false,
			trustedOrigins: [TRUSTED],
		});
		try {
			const { client } = await createTestUser(server);
			const created = await client.request("/api/generations", {
				method: "POST",
				json: { prompt: "mine", aspectRatio: "--ar 1:1" },
			});
			const { id } = (await created.json()) as { id: string };
			const cookie = client.cookieHeader;

			for (const contentType of [
				"application/json",
				"text/plain",
				"application/x-www-form-urlencoded",
			]) {
				await expectRefused(
					await send(server, cookie, "/api/generations", {
						method: "POST",
						headers: { origin: EVIL, "content-type": contentType },
						body,
					}),
				);
			}
			for (const method of ["DELETE", "PUT", "PATCH"]) {
				await expectRefused(
					await send(server, cookie, `/api/generations/${id}`, {
						method,
						headers: { origin: EVIL },
					}),
				);
			}
			// Better Auth's own routes are covered the same way.
			await expectRefused(
				await send(server, cookie, "/api/auth/sign-out", {
					method: "POST",
					headers: { origin: EVIL, "content-type": "application/json" },
					body: "{}",
				}),
			);
			// A plain form posted without Origin (older browsers) cannot pass either.
			await expectRefused(
				await send(server, cookie, "/api/generations", {
					method: "POST",
					headers: { "content-type": "text/plain" },
					body,
				}),
			);
			await expectRefused(
				await send(server, cookie, `/api/generations/${id}`, { method: "DELETE" }),
			);

			// Nothing changed: one generation, still there, and the session still works.
			const page = (await (await client.request("/api/generations")).json()) as GenerationPage;
			expect(page.items.map((item) => item.id)).toEqual([id]);
		} finally {
			await server.close();
		}
	});

	it("accepts the app's own origin, a trusted one, the browser's same-origin mark, and scripts sending JSON", async () => {
		const server = await createTestServer(kind, {
			isWorkerEnabled: false,
			trustedOrigins: [TRUSTED],
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
		});
		try {
			const { client } = await createTestUser(server);
			const cookie = client.cookieHeader;
			const json = { "content-type": "application/json" };
			const allowed: Array<Record<string, string>> = [
				{ ...json, origin: TEST_BASE_URL },
				{ ...json, origin: TRUSTED },
				{ "content-type": "text/plain", "sec-fetch-site": "same-origin" },
				json,
			];
			for (const headers of allowed) {
				const response = await send(server, cookie, "/api/generations", {
					method: "POST",
					headers,
					body,
				});
				expect(response.status).toBe(201);
			}
			const page = (await (await client.request("/api/generations")).json()) as GenerationPage;
			const [newest] = page.items;
			const deleted = await send(server, cookie, `/api/generations/${newest?.id}`, {
				method: "DELETE",
				headers: { origin: TEST_BASE_URL },
			});
			expect(deleted.status).toBe(200);
		} finally {
			await server.close();
		}
	});
});
