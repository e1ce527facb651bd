import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalProvider } from "../providers/local/local-provider";
import type { ImageProvider, ProviderJob } from "../providers/types";
import { PLAIN_CAPABILITIES } from "../providers/types";
import { createS3Storage } from "../storage/s3-storage";
import type { Storage } from "../storage/storage";
import { readSessionEmail } from "../testing/account-test-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { requestGeneration, waitForFinish, waitUntilStarted } from "../testing/generation-kit";
import { readZip } from "../testing/read-zip";
import { type S3Server, startS3Server } from "../testing/s3-server";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { TEST_ADMIN_EMAIL } from "../testing/test-settings";

type Person = Awaited<ReturnType<typeof createTestUser>>;

/** The local engine, except that prompts containing "stuck" never finish; cancels are recorded. */
function createPartlyStuckProvider() {
	const local = createLocalProvider({ delayMs: 0 });
	const cancelled: string[] = [];
	const provider: ImageProvider = {
		name: "local",
		capabilities: PLAIN_CAPABILITIES,
		async start(input, options) {
			if (input.prompt.includes("stuck")) return { jobId: `stuck-${Math.random()}` };
			return local.start(input, options);
		},
		async check(job: ProviderJob, options) {
			if (job.jobId.startsWith("stuck-")) return { status: "running" };
			return local.check(job, options);
		},
		async cancel(job) {
			cancelled.push(job.jobId);
		},
	};
	return { provider, cancelled };
}

function generate(person: Person, prompt: string) {
	return requestGeneration(person.client, prompt, "--ar 3:2");
}

async function generateToTheEnd(person: Person, prompt: string) {
	const created = await generate(person, prompt);
	expect((await waitForFinish(person.client, created.pollingUrl)).status).toBe("completed");
	return created;
}

async function listFiles(directory: string): Promise<string[]> {
	const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(
		() => [],
	);
	return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** Rows anywhere in the database that still mention the person, by table. */
async function findTraces(server: TestServer, userId: string, email: string) {
	const queries: Record<string, [string, string[]]> = {
		user: [
			`select count(*)::int as count from "user" where id = $1 or email = $2`,
			[userId, email],
		],
		session: [`select count(*)::int as count from session where "userId" = $1`, [userId]],
		account: [`select count(*)::int as count from account where "userId" = $1`, [userId]],
		verification: [
			`select count(*)::int as count from verification where value = $1 or value = $2`,
			[userId, email],
		],
		generations: ["select count(*)::int as count from generations where user_id = $1", [userId]],
		generation_counts: [
			"select count(*)::int as count from generation_counts where user_id = $1",
			[userId],
		],
	};
	const traces: Record<string, number> = {};
	for (const [table, [query, parameters]] of Object.entries(queries)) {
		const { rows } = await server.database.pool.query<{ count: number }>(query, parameters);
		traces[table] = rows[0]?.count ?? -1;
	}
	return traces;
}

async function deleteAccount(client: TestClient, email: string) {
	return client.request("/api/account/delete", { method: "POST", json: { email } });
}

describe.each(availableDatabaseKinds())("the account on %s", (kind) => {
	let server: TestServer;
	let cancelled: string[];

	beforeAll(async () => {
		const stuck = createPartlyStuckProvider();
		cancelled = stuck.cancelled;
		server = await createTestServer(kind, { provider: stuck.provider });
	});
	afterAll(async () => {
		await server.close();
	});

	it("changes the password with the current one, by the sign-up rules, signing other devices out", async () => {
		const person = await createTestUser(server);
		const phone = new TestClient(server, "203.0.113.40");
		await phone.request("/api/auth/sign-in/email", {
			method: "POST",
			json: { email: person.email, password: person.password },
		});

		const wrong = await person.client.request("/api/auth/change-password", {
			method: "POST",
			json: { currentPassword: "not it", newPassword: "a new password", revokeOtherSessions: true },
		});
		expect(wrong.status).toBe(400);
		expect(((await wrong.json()) as { message: string }).message).toMatch(/invalid password/i);

		const short = await person.client.request("/api/auth/change-password", {
			method: "POST",
			json: { currentPassword: person.password, newPassword: "12345", revokeOtherSessions: true },
		});
		expect(short.status).toBe(400);
		expect(((await short.json()) as { message: string }).message).toMatch(/password too short/i);
		expect(await readSessionEmail(phone)).toBe(person.email);

		const changed = await person.client.request("/api/auth/change-password", {
			method: "POST",
			json: {
				currentPassword: person.password,
				newPassword: "a new password",
				revokeOtherSessions: true,
			},
		});
		expect(changed.status).toBe(200);
		expect(await readSessionEmail(person.client)).toBe(person.email);
		expect(await readSessionEmail(phone)).toBeNull();
		const again = new TestClient(server);
		const signIn = await again.request("/api/auth/sign-in/email", {
			method: "POST",
			json: { email: person.email, password: "a new password" },
		});
		expect(signIn.status).toBe(200);
	});

	it("lists the signed-in devices and signs out of the others", async () => {
		const person = await createTestUser(server);
		const tablet = new TestClient(server, "203.0.113.41");
		await tablet.request("/api/auth/sign-in/email", {
			method: "POST",
			json: { email: person.email, password: person.password },
			headers: { "user-agent": "Tablet Browser" },
		});
		const sessions = (await (await person.client.request("/api/auth/list-sessions")).json()) as {
			ipAddress: string;
		}[];
		expect(sessions.map((session) => session.ipAddress).sort()).toEqual([
			"203.0.113.10",
			"203.0.113.41",
		]);

		const revoked = await person.client.request("/api/auth/revoke-other-sessions", {
			method: "POST",
			json: {},
		});
		expect(revoked.status).toBe(200);
		expect(await readSessionEmail(tablet)).toBeNull();
		expect(await readSessionEmail(person.client)).toBe(person.email);
		const left = (await (
			await person.client.request("/api/auth/list-sessions")
		).json()) as unknown[];
		expect(left).toHaveLength(1);
	});

	it("exports every generation of the person, and only theirs, as a ZIP with metadata", async () => {
		const person = await createTestUser(server);
		const first = await generateToTheEnd(person, "a red fox in snow");
		const second = await generateToTheEnd(person, "a lighthouse at dusk");
		const stranger = await createTestUser(server);
		const theirs = await generateToTheEnd(stranger, "someone else's picture");

		const response = await person.client.request("/api/account/export");
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toBe("application/zip");
		expect(response.headers.get("content-disposition")).toMatch(
			/^attachment; filename="atelier-export-\d{4}-\d{2}-\d{2}\.zip"$/,
		);
		const files = await readZip(new Uint8Array(await response.arrayBuffer()));

		const account = JSON.parse(files.get("account.json")?.toString() ?? "{}");
		expect(account).toMatchObject({ email: person.email, label: "Free Account", generations: 2 });
		const listed = JSON.parse(files.get("generations.json")?.toString() ?? "[]") as {
			id: string;
			prompt: string;
			aspectRatio: string;
			images: { file: string; width: number; height: number }[];
		}[];
		expect(listed.map((entry) => entry.id)).toEqual([second.id, first.id]);
		expect(listed[0]?.prompt).toBe("a lighthouse at dusk");
		expect(listed[0]?.aspectRatio).toBe("--ar 3:2");
		expect(listed[0]?.images).toHaveLength(4);
		expect([...files.keys()].some((name) => name.includes(theirs.id))).toBe(false);

		for (const generation of [first, second]) {
			const folder = [...files.keys()]
				.find((name) => name.includes(generation.id))
				?.split("/")
				.slice(0, 2)
				.join("/");
			expect(folder).toMatch(/^generations\/\d{4}-\d{2}-\d{2}_/);
			const metadata = JSON.parse(files.get(`${folder}/metadata.json`)?.toString() ?? "{}");
			expect(metadata.id).toBe(generation.id);
			const { rows } = await server.database.pool.query<{ images: { key: string }[] }>(
				"select images from generations where id = $1",
				[generation.id],
			);
			for (const [index, image] of (metadata.images as { file: string }[]).entries()) {
				const stored = await server.storage.get(rows[0]?.images[index]?.key ?? "");
				expect(stored).toBeDefined();
				expect(files.get(`${folder}/${image.file}`)?.equals(Buffer.from(stored?.data ?? []))).toBe(
					true,
				);
			}
		}
	});

	it("refuses an export without a session", async () => {
		const response = await new TestClient(server).request("/api/account/export");
		await expectErrorEnvelope(response, 401, "AUTH_ERROR");
	});

	it("deletes an account only when its e-mail is typed, and never the administrator's", async () => {
		const person = await createTestUser(server);
		const mismatch = await deleteAccount(person.client, "someone@example.com");
		expect(await expectErrorEnvelope(mismatch, 400, "VALIDATION_ERROR")).toBe(
			"That is not your e-mail address. Type it exactly to confirm.",
		);
		const missing = await person.client.request("/api/account/delete", {
			method: "POST",
			json: {},
		});
		expect(await expectErrorEnvelope(missing, 400, "VALIDATION_ERROR")).toBe(
			"Type your e-mail address to confirm.",
		);

		// Better Auth's own endpoint is not reachable: it would skip the confirmation.
		const direct = await person.client.request("/api/auth/delete-user", {
			method: "POST",
			json: {},
		});
		expect(direct.status).toBe(404);
		expect(await readSessionEmail(person.client)).toBe(person.email);

		const admin = await createTestAdministrator(server);
		const refused = await deleteAccount(admin.client, ` ${TEST_ADMIN_EMAIL.toUpperCase()} `);
		await expectErrorEnvelope(refused, 403, "ADMIN_ACCOUNT_PROTECTED");
		expect(await readSessionEmail(admin.client)).toBe(TEST_ADMIN_EMAIL);
	});

	it("deletes everything of the person, cancels their running job and signs them out, leaving others alone", async () => {
		const person = await createTestUser(server);
		const laptop = new TestClient(server, "203.0.113.50");
		await laptop.request("/api/auth/sign-in/email", {
			method: "POST",
			json: { email: person.email, password: person.password },
		});
		const done = await generateToTheEnd(person, "a red fox in snow");
		const running = await generate(person, "a stuck kettle");
		await waitUntilStarted(person.client, running.id);
		await person.client.request("/api/auth/request-password-reset", {
			method: "POST",
			json: { email: person.email },
		});
		const other = await createTestUser(server);
		const kept = await generateToTheEnd(other, "a picture that stays");

		const folder = (id: string) => path.join(server.storageDir, "generations", id);
		// Four images, each stored as the original, a thumbnail and a display copy.
		expect(await listFiles(folder(done.id))).toHaveLength(12);

		const response = await deleteAccount(person.client, person.email.toUpperCase());
		expect(response.status).toBe(200);
		expect(response.headers.getSetCookie().some((cookie) => /max-age=0/i.test(cookie))).toBe(true);

		expect(await readSessionEmail(person.client)).toBeNull();
		expect(await readSessionEmail(laptop)).toBeNull();
		expect(await findTraces(server, person.userId, person.email)).toEqual({
			user: 0,
			session: 0,
			account: 0,
			verification: 0,
			generations: 0,
			generation_counts: 0,
		});
		expect(await listFiles(folder(done.id))).toEqual([]);
		expect(await listFiles(folder(running.id))).toEqual([]);
		expect(cancelled).toHaveLength(1);
		expect(cancelled[0]).toMatch(/^stuck-/);

		const signIn = await new TestClient(server).request("/api/auth/sign-in/email", {
			method: "POST",
			json: { email: person.email, password: person.password },
		});
		expect(signIn.status).toBe(401);
		expect(await listFiles(folder(kept.id))).toHaveLength(12);
		expect(await readSessionEmail(other.client)).toBe(other.email);
	});
});

describe.each(availableDatabaseKinds())("the account with S3 storage on %s", (kind) => {
	let server: TestServer;
	let s3: S3Server;

	beforeAll(async () => {
		s3 = await startS3Server();
		server = await createTestServer(kind, {
			storage: createS3Storage({
				bucket: s3.bucket,
				region: s3.region,
				endpoint: s3.endpoint,
				accessKeyId: s3.accessKeyId,
				secretAccessKey: s3.secretAccessKey,
				forcePathStyle: true,
				prefix: "atelier/",
			}),
		});
	});
	afterAll(async () => {
		await server.close();
		await s3.stop();
	});

	it("exports from the bucket and deletion leaves no object of the person in it", async () => {
		const person = await createTestUser(server);
		const created = await generateToTheEnd(person, "a boat on a lake");
		const other = await createTestUser(server);
		const kept = await generateToTheEnd(other, "a kept picture");
		const objectsOf = async (id: string) =>
			(await s3.listKeys()).filter((key) => key.includes(`generations/${id}/`));
		expect(await objectsOf(created.id)).toHaveLength(12);

		const exported = await readZip(
			new Uint8Array(await (await person.client.request("/api/account/export")).arrayBuffer()),
		);
		expect([...exported.keys()].filter((name) => name.includes("/image-"))).toHaveLength(4);

		expect((await deleteAccount(person.client, person.email)).status).toBe(200);
		expect(await objectsOf(created.id)).toEqual([]);
		expect(await objectsOf(kept.id)).toHaveLength(12);
	});
});

describe.each(availableDatabaseKinds())("a failing export on %s", (kind) => {
	let server: TestServer;
	let failAfter: { reads: number };

	beforeAll(async () => {
		failAfter = { reads: Number.POSITIVE_INFINITY };
		server = await createTestServer(kind, {
			storage: undefined,
		});
		const real = server.storage;
		const failing: Storage = {
			...real,
			kind: real.kind,
			async get(key) {
				failAfter.reads -= 1;
				if (failAfter.reads < 0) throw new Error("the disk went away");
				return real.get(key);
			},
		};
		Object.assign(server.storage, failing);
	});
	afterAll(async () => {
		await server.close();
	});

	it("ends the download with an error instead of a truncated file", async () => {
		const person = await createTestUser(server);
		await generateToTheEnd(person, "one");
		await generateToTheEnd(person, "two");
		failAfter.reads = 5;
		const response = await person.client.request("/api/account/export");
		expect(response.status).toBe(200);
		await expect(response.arrayBuffer()).rejects.toThrow();
	});
});
