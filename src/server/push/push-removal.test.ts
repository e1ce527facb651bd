// A device's notifications end with its session: signing out there, the administrator disabling
// the person, taking the account back and deleting the account each remove the subscriptions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listDevices, subscribeDevice } from "../testing/push-kit";
import { startPushService } from "../testing/push-service";
import { readResetToken } from "../testing/reset-token";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { DEFAULT_PUSH_SETTINGS } from "./push-settings";

describe.each(availableDatabaseKinds())("removing push subscriptions (%s)", (kind) => {
	let server: TestServer;
	let service: Awaited<ReturnType<typeof startPushService>>;

	beforeAll(async () => {
		service = await startPushService();
		server = await createTestServer(kind, {
			isWorkerEnabled: false,
			push: { ...DEFAULT_PUSH_SETTINGS, allowPrivateTargets: true },
		});
	});
	afterAll(async () => {
		await server?.close();
		await service?.close();
	});

	/** The person signed in on a second device, with notifications on there and on the first. */
	async function personWithTwoDevices() {
		const person = await createTestUser(server);
		const phone = new TestClient(server, "198.51.100.7");
		const signedIn = await phone.request("/api/auth/sign-in/email", {
			method: "POST",
			json: { email: person.email, password: person.password },
		});
		expect(signedIn.status).toBe(200);
		const laptopId = await subscribeDevice(person.client, service.subscribe(), "Laptop");
		const phoneId = await subscribeDevice(phone, service.subscribe(), "Phone");
		return { ...person, phone, laptopId, phoneId };
	}

	function countSubscriptionsOf(userId: string): Promise<number> {
		return server.database.db
			.selectFrom("push_subscriptions")
			.select((eb) => eb.fn.countAll<string>().as("count"))
			.where("user_id", "=", userId)
			.executeTakeFirstOrThrow()
			.then((row) => Number(row.count));
	}

	it("signing out on a device removes that device's, and only that one's", async () => {
		const person = await personWithTwoDevices();
		const signedOut = await person.phone.request("/api/auth/sign-out", {
			method: "POST",
			json: {},
		});
		expect(signedOut.status).toBe(200);
		expect((await listDevices(person.client)).map((device) => device.id)).toEqual([
			person.laptopId,
		]);
	});

	it("disabling the person removes every device's", async () => {
		const admin = await createTestAdministrator(server);
		const person = await personWithTwoDevices();
		const disabled = await admin.client.request(`/api/admin/people/${person.userId}/disable`, {
			method: "POST",
		});
		expect(disabled.status).toBe(200);
		expect(await countSubscriptionsOf(person.userId)).toBe(0);
	});

	it("taking the account back with a password reset removes every device's", async () => {
		const person = await personWithTwoDevices();
		const owner = new TestClient(server, "198.51.100.30");
		await owner.request("/api/auth/request-password-reset", {
			method: "POST",
			json: { email: person.email },
		});
		const reset = await owner.request("/api/auth/reset-password", {
			method: "POST",
			json: {
				token: await readResetToken(server, person.userId),
				newPassword: "a password only the owner knows",
			},
		});
		expect(reset.status).toBe(200);
		expect(await countSubscriptionsOf(person.userId)).toBe(0);
	});

	it("deleting the account removes every device's", async () => {
		const person = await personWithTwoDevices();
		const deleted = await person.client.request("/api/account/delete", {
			method: "POST",
			json: { email: person.email },
		});
		expect(deleted.status).toBe(200);
		expect(await countSubscriptionsOf(person.userId)).toBe(0);
	});
});
