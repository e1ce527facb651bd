import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PeoplePageSchema } from "../../shared/admin/people";
import { ErrorEnvelopeSchema } from "../../shared/generations/generation-responses";
import { findFreePort } from "../testing/postgres-cluster";
import {
	claimAdministratorOn,
	type ServerProcess,
	signUpOn,
	spawnServer,
	waitUntilHealthy,
} from "../testing/server-process";
import { createEmptyPostgresDatabase } from "../testing/test-database";

const SECRET = "people-across-processes-secret-at-least-32-characters";
const ADMIN_EMAIL = "admin@example.com";
// The password signUpOn gives everyone.
const PASSWORD = "secret12";

type Session = Awaited<ReturnType<typeof signUpOn>>;

function createGenerationOn(server: ServerProcess, session: Session, prompt: string) {
	return fetch(`${server.origin}/api/generations`, {
		method: "POST",
		headers: session,
		body: JSON.stringify({ prompt, aspectRatio: "--ar 1:1" }),
	});
}

async function readErrorCode(response: Response): Promise<string> {
	return ErrorEnvelopeSchema.parse(await response.json()).error.code;
}

function signInOn(server: ServerProcess, email: string, origin: string) {
	return fetch(`${server.origin}/api/auth/sign-in/email`, {
		method: "POST",
		headers: { "content-type": "application/json", origin },
		body: JSON.stringify({ email, password: PASSWORD }),
	});
}

/**
 * The administrator acts in one server process; the person uses another. Nothing is kept in a
 * process's memory, so each change must hold in the other process from the next request on.
 */
describe.skipIf(!inject("postgresUrl"))(
	"the administrator's controls across server processes",
	() => {
		let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
		let dataDir: string;
		let adminProcess: ServerProcess;
		let personProcess: ServerProcess;
		let admin: Session;
		let appOrigin: string;

		beforeAll(async () => {
			database = await createEmptyPostgresDatabase();
			dataDir = await mkdtemp(path.join(".tmp", "people-processes-"));
			const ports = [await findFreePort(), await findFreePort()];
			appOrigin = `http://127.0.0.1:${ports[0]}`;
			const env = {
				BASE_URL: appOrigin,
				BETTER_AUTH_SECRET: SECRET,
				AUTH_RATE_LIMIT_ENABLED: "false",
				ADMIN_EMAIL,
				DATABASE_URL: database.url,
				DATA_DIR: dataDir,
				LOG_LEVEL: "warn",
			};
			// One after the other: the first migrates the new database.
			adminProcess = spawnServer(inject("serverEntry"), { ...env, PORT: String(ports[0]) });
			await waitUntilHealthy(adminProcess);
			personProcess = spawnServer(inject("serverEntry"), { ...env, PORT: String(ports[1]) });
			await waitUntilHealthy(personProcess);
			admin = await claimAdministratorOn(adminProcess, ADMIN_EMAIL, appOrigin);
		}, 180_000);
		afterAll(async () => {
			await adminProcess?.kill();
			await personProcess?.kill();
			await database?.drop();
			await rm(dataDir, { recursive: true, force: true });
		});

		async function findPersonId(email: string): Promise<string> {
			const response = await fetch(
				`${adminProcess.origin}/api/admin/people?search=${encodeURIComponent(email)}`,
				{ headers: admin },
			);
			const page = PeoplePageSchema.parse(await response.json());
			const id = page.items.find((item) => item.email === email)?.id;
			if (!id) throw new Error(`${email} is not listed`);
			return id;
		}

		it("a quota set in one process limits the person in the other at once; clearing it restores the default", async () => {
			const email = "quota-person@example.com";
			const person = await signUpOn(personProcess.origin, email, appOrigin);
			const id = await findPersonId(email);

			const set = await fetch(`${adminProcess.origin}/api/admin/people/${id}/quota`, {
				method: "PUT",
				headers: admin,
				body: JSON.stringify({ maxActive: null, daily: 1 }),
			});
			expect(set.status).toBe(200);
			expect((await createGenerationOn(personProcess, person, "first")).status).toBe(201);
			const refused = await createGenerationOn(personProcess, person, "second");
			expect(refused.status).toBe(429);
			expect(await readErrorCode(refused)).toBe("QUOTA_EXCEEDED");

			await fetch(`${adminProcess.origin}/api/admin/people/${id}/quota`, {
				method: "PUT",
				headers: admin,
				body: JSON.stringify({ maxActive: null, daily: null }),
			});
			// The default has no daily limit.
			expect((await createGenerationOn(personProcess, person, "third")).status).toBe(201);
		});

		it("a person disabled in one process is refused by the other at once, and may sign in there once enabled", async () => {
			const email = "disabled-person@example.com";
			const person = await signUpOn(personProcess.origin, email, appOrigin);
			const id = await findPersonId(email);
			expect(
				(await fetch(`${personProcess.origin}/api/generations`, { headers: person })).status,
			).toBe(200);

			const disabled = await fetch(`${adminProcess.origin}/api/admin/people/${id}/disable`, {
				method: "POST",
				headers: admin,
			});
			expect(disabled.status).toBe(200);

			const refused = await fetch(`${personProcess.origin}/api/generations`, { headers: person });
			expect(refused.status).toBe(401);
			const signIn = await signInOn(personProcess, email, appOrigin);
			expect(signIn.status).toBe(403);
			expect(await signIn.json()).toMatchObject({ code: "ACCOUNT_DISABLED" });

			await fetch(`${adminProcess.origin}/api/admin/people/${id}/enable`, {
				method: "POST",
				headers: admin,
			});
			expect((await signInOn(personProcess, email, appOrigin)).status).toBe(200);
		});
	},
);
