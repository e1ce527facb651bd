import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

describe.each(availableDatabaseKinds())("the account's settings on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server.close();
	});

	it("follows the system's theme until the person chooses, then keeps their choice", async () => {
		const person = await createTestUser(server);
		const before = await person.client.request("/api/account/settings");
		expect(before.status).toBe(200);
		expect(before.headers.get("cache-control")).toBe("no-store");
		expect(await before.json()).toEqual({ theme: "system", language: "browser" });

		const chosen = await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { theme: "dark" },
		});
		expect(chosen.status).toBe(200);
		expect(await chosen.json()).toEqual({ theme: "dark", language: "browser" });
		const changedAgain = await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { theme: "light" },
		});
		expect(await changedAgain.json()).toEqual({ theme: "light", language: "browser" });
		// Nothing to change leaves the setting as it was.
		const unchanged = await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: {},
		});
		expect(await unchanged.json()).toEqual({ theme: "light", language: "browser" });
		expect(await (await person.client.request("/api/account/settings")).json()).toEqual({
			theme: "light",
			language: "browser",
		});
	});

	it("keeps the language beside the theme, each changed alone", async () => {
		const person = await createTestUser(server);
		await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { theme: "dark" },
		});
		const german = await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { language: "de" },
		});
		expect(await german.json()).toEqual({ theme: "dark", language: "de" });
		const both = await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { theme: "light", language: "browser" },
		});
		expect(await both.json()).toEqual({ theme: "light", language: "browser" });
	});

	it("refuses a language it does not speak, naming the field, and keeps the one chosen", async () => {
		const person = await createTestUser(server);
		await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { language: "de" },
		});
		for (const json of [{ language: "fr" }, { language: "DE" }, { language: null }]) {
			const message = await expectErrorEnvelope(
				await person.client.request("/api/account/settings", { method: "PATCH", json }),
				400,
				"VALIDATION_ERROR",
			);
			expect(message).toContain("language");
		}
		expect(await (await person.client.request("/api/account/settings")).json()).toEqual({
			theme: "system",
			language: "de",
		});
	});

	it("keeps each person's settings their own", async () => {
		const chooser = await createTestUser(server);
		const other = await createTestUser(server);
		await chooser.client.request("/api/account/settings", {
			method: "PATCH",
			json: { theme: "dark" },
		});
		expect(await (await other.client.request("/api/account/settings")).json()).toEqual({
			theme: "system",
			language: "browser",
		});
	});

	it("goes with the account when it is deleted", async () => {
		const person = await createTestUser(server);
		await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { theme: "dark" },
		});
		const countRows = async () =>
			(
				await server.database.db
					.selectFrom("account_settings")
					.select((eb) => eb.fn.countAll<number>().as("count"))
					.where("user_id", "=", person.userId)
					.executeTakeFirstOrThrow()
			).count;
		expect(Number(await countRows())).toBe(1);
		const deleted = await person.client.request("/api/account/delete", {
			method: "POST",
			json: { email: person.email },
		});
		expect(deleted.status).toBe(200);
		expect(Number(await countRows())).toBe(0);
	});

	it("answers someone signed out with 401", async () => {
		const visitor = new TestClient(server);
		await expectErrorEnvelope(await visitor.request("/api/account/settings"), 401, "AUTH_ERROR");
		await expectErrorEnvelope(
			await visitor.request("/api/account/settings", { method: "PATCH", json: { theme: "dark" } }),
			401,
			"AUTH_ERROR",
		);
	});

	it("refuses an API token: the settings are the signed-in browser's", async () => {
		const person = await createTestUser(server);
		const { token } = await createToken(person, ["generate", "read", "delete"]);
		await expectErrorEnvelope(
			await callWithToken(server, token, "/api/account/settings"),
			403,
			"TOKEN_NOT_ALLOWED",
		);
		await expectErrorEnvelope(
			await callWithToken(server, token, "/api/account/settings", {
				method: "PATCH",
				json: { theme: "dark" },
			}),
			403,
			"TOKEN_NOT_ALLOWED",
		);
		expect(await (await person.client.request("/api/account/settings")).json()).toEqual({
			theme: "system",
			language: "browser",
		});
	});

	it("refuses a theme it does not know, naming the field, and keeps the one chosen", async () => {
		const person = await createTestUser(server);
		await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { theme: "dark" },
		});
		for (const json of [{ theme: "sepia" }, { theme: null }, { colour: "dark" }, ["dark"]]) {
			const message = await expectErrorEnvelope(
				await person.client.request("/api/account/settings", { method: "PATCH", json }),
				400,
				"VALIDATION_ERROR",
			);
			expect(message).toContain("theme");
		}
		const notJson = await person.client.request("/api/account/settings", {
			method: "PATCH",
			headers: { "content-type": "application/json" },
			body: "{theme:",
		});
		await expectErrorEnvelope(notJson, 400, "VALIDATION_ERROR");
		expect(await (await person.client.request("/api/account/settings")).json()).toEqual({
			theme: "dark",
			language: "browser",
		});
	});
});
