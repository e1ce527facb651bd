import { describe, expect, it } from "vitest";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestUser,
	TestClient,
	useTestServer,
} from "../testing/test-server";

type Refusal = { code?: string; message: string };

const GERMAN = { "accept-language": "de-DE,de;q=0.9" };
const ENGLISH = { "accept-language": "en-US,en;q=0.9" };

async function readRefusal(answer: Response, status: number): Promise<Refusal> {
	expect(answer.status).toBe(status);
	return (await answer.json()) as Refusal;
}

describe.each(availableDatabaseKinds())(
	"Better Auth's refusals in the person's language on %s",
	(kind) => {
		const server = useTestServer(kind);

		async function signIn(headers: Record<string, string>, email: string, password: string) {
			return new TestClient(server()).request("/api/auth/sign-in/email", {
				method: "POST",
				headers,
				json: { email, password },
			});
		}

		it("refuses a wrong password in German for a German browser, in Better Auth's English otherwise", async () => {
			const { email } = await createTestUser(server());
			expect(await readRefusal(await signIn(GERMAN, email, "not the password"), 401)).toEqual({
				code: "INVALID_EMAIL_OR_PASSWORD",
				message: "E-Mail-Adresse oder Passwort ist falsch",
			});
			expect(await readRefusal(await signIn(ENGLISH, email, "not the password"), 401)).toEqual({
				code: "INVALID_EMAIL_OR_PASSWORD",
				message: "Invalid email or password",
			});
			// The browser's chosen language wins over its Accept-Language, as on every answer.
			const chosen = await signIn(
				{ ...ENGLISH, cookie: "atelier-language=de" },
				email,
				"not the password",
			);
			expect((await readRefusal(chosen, 401)).message).toBe(
				"E-Mail-Adresse oder Passwort ist falsch",
			);
		});

		it("refuses an address that has an account in the browser's language", async () => {
			const { email } = await createTestUser(server());
			const signUp = (headers: Record<string, string>) =>
				new TestClient(server()).request("/api/auth/sign-up/email", {
					method: "POST",
					headers,
					json: { email, password: "another good password", name: "again" },
				});
			expect(await readRefusal(await signUp(GERMAN), 422)).toEqual({
				code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
				message: "Diese E-Mail-Adresse hat schon ein Konto. Nimm eine andere E-Mail-Adresse.",
			});
			expect(await readRefusal(await signUp(ENGLISH), 422)).toEqual({
				code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
				message: "User already exists. Use another email.",
			});
		});

		it("refuses a wrong current password when changing it in the browser's language", async () => {
			const person = await createTestUser(server());
			const change = (headers: Record<string, string>) =>
				person.client.request("/api/auth/change-password", {
					method: "POST",
					headers,
					json: { currentPassword: "not the password", newPassword: "a new good password" },
				});
			expect(await readRefusal(await change(GERMAN), 400)).toEqual({
				code: "INVALID_PASSWORD",
				message: "Das Passwort ist falsch",
			});
			expect(await readRefusal(await change(ENGLISH), 400)).toEqual({
				code: "INVALID_PASSWORD",
				message: "Invalid password",
			});
		});

		it("refuses a body Better Auth's schema refuses with the catalogue's text, never zod's", async () => {
			const askReset = (headers: Record<string, string>, email: string) =>
				new TestClient(server()).request("/api/auth/request-password-reset", {
					method: "POST",
					headers,
					json: { email, redirectTo: "/reset-password" },
				});
			expect(await readRefusal(await askReset(GERMAN, "not an address"), 400)).toEqual({
				code: "VALIDATION_ERROR",
				message: "Ungültige E-Mail-Adresse",
			});
			expect(await readRefusal(await askReset(ENGLISH, ""), 400)).toEqual({
				code: "VALIDATION_ERROR",
				message: "Invalid email",
			});
			const signIn = await new TestClient(server()).request("/api/auth/sign-in/email", {
				method: "POST",
				headers: ENGLISH,
				json: { email: "someone@example.com", password: 42 },
			});
			expect(await readRefusal(signIn, 400)).toEqual({
				code: "VALIDATION_ERROR",
				message: "Invalid input. Please check your data and try again.",
			});
		});

		it("tells a disabled person why they cannot sign in, in their browser's language", async () => {
			const admin = await createTestAdministrator(server());
			const person = await createTestUser(server());
			const disabled = await admin.client.request(`/api/admin/people/${person.userId}/disable`, {
				method: "POST",
			});
			expect(disabled.status).toBe(200);
			expect(await readRefusal(await signIn(GERMAN, person.email, person.password), 403)).toEqual({
				code: "ACCOUNT_DISABLED",
				message: "Dieses Konto wurde vom Administrator deaktiviert.",
			});
			expect(await readRefusal(await signIn(ENGLISH, person.email, person.password), 403)).toEqual({
				code: "ACCOUNT_DISABLED",
				message: "This account has been disabled by the administrator.",
			});
		});
	},
);

describe.each(availableDatabaseKinds())(
	"Better Auth's rate limit in the person's language on %s",
	(kind) => {
		const server = useTestServer(kind, { isRateLimitEnabled: true });

		it("answers too many sign-in attempts in German for a German browser, in English otherwise", async () => {
			const attacker = new TestClient(server(), "198.51.100.30");
			const attempt = (headers: Record<string, string>) =>
				attacker.request("/api/auth/sign-in/email", {
					method: "POST",
					headers,
					json: { email: "nobody@example.com", password: "wrong password" },
				});
			for (let count = 0; count < 10; count++) expect((await attempt(ENGLISH)).status).toBe(401);
			expect((await readRefusal(await attempt(GERMAN), 429)).message).toBe(
				"Zu viele Anfragen. Bitte versuche es später erneut.",
			);
			expect((await readRefusal(await attempt(ENGLISH), 429)).message).toBe(
				"Too many requests. Please try again later.",
			);
		});
	},
);
