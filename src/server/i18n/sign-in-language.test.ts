import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

describe.each(availableDatabaseKinds())("the account's language at sign-in on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server.close();
	});

	/** A person whose account says `language`, and a new browser that asks for English. */
	async function signInOnNewBrowser(language: "de" | "en" | "browser", cookie?: string) {
		const person = await createTestUser(server);
		const saved = await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { language },
		});
		expect(saved.status).toBe(200);
		const browser = new TestClient(server);
		const headers: Record<string, string> = { "accept-language": "en-US,en;q=0.9" };
		if (cookie) headers.cookie = cookie;
		const signedIn = await browser.request("/api/auth/sign-in/email", {
			method: "POST",
			headers,
			json: { email: person.email, password: person.password },
		});
		expect(signedIn.status).toBe(200);
		return { browser, signedIn };
	}

	async function readErrorMessage(browser: TestClient): Promise<string> {
		const answer = await browser.request("/api/no-such-route", {
			headers: { "accept-language": "en-US,en;q=0.9" },
		});
		return ((await answer.json()) as { error: { message: string } }).error.message;
	}

	it("keeps a German account's choice in the new browser's cookie, so its first page is German", async () => {
		const { browser, signedIn } = await signInOnNewBrowser("de");

		const cookie = signedIn.headers
			.getSetCookie()
			.find((value) => value.startsWith("atelier-language="));
		expect(cookie).toMatch(/^atelier-language=de;/);
		expect(cookie).toMatch(/Path=\//i);
		expect(cookie).toMatch(/SameSite=Lax/i);
		// The browser's own script reads and writes it too (lib/account/language-choice.ts).
		expect(cookie).not.toMatch(/HttpOnly/i);
		expect(await readErrorMessage(browser)).toBe("Nicht gefunden.");
	});

	it("keeps an English account's choice although the browser chose German before", async () => {
		const { browser } = await signInOnNewBrowser("en", "atelier-language=de");
		expect(browser.cookieHeader).toContain("atelier-language=en");
		expect(await readErrorMessage(browser)).toBe("Not found.");
	});

	it("forgets another choice of this browser when the account follows the browser's language", async () => {
		const { browser, signedIn } = await signInOnNewBrowser("browser", "atelier-language=de");
		const cookie = signedIn.headers
			.getSetCookie()
			.find((value) => value.startsWith("atelier-language="));
		expect(cookie).toMatch(/^atelier-language=;.*Max-Age=0/i);
		expect(browser.cookieHeader).not.toContain("atelier-language");
		expect(await readErrorMessage(browser)).toBe("Not found.");
	});

	it("leaves a browser without a chosen language as it is when the account chose none", async () => {
		const { signedIn } = await signInOnNewBrowser("browser");
		expect(signedIn.headers.getSetCookie().join("\n")).not.toContain("atelier-language");
	});
});
