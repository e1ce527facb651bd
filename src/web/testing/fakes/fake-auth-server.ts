import { HttpResponse, http } from "msw";
import { z } from "zod";
import {
	type LanguageChoice,
	type ThemeChoice,
	UpdateAccountSettingsRequestSchema,
} from "../../../shared/account/account-settings";
import { ERRORS, errorBody } from "../../../shared/core/errors";
import { mswServer } from "../msw-server";

export type TestUser = {
	id: string;
	email: string;
	name: string;
	password: string;
	isAdmin: boolean;
	emailVerified: boolean;
	/** At ADMIN_EMAIL, not yet claimed: the server's isAdminUnclaimed. */
	isAdminUnclaimed: boolean;
	/** The account's theme (GET /api/account/settings). */
	theme: ThemeChoice;
	/** The account's language (GET /api/account/settings). */
	language: LanguageChoice;
};

let nextUserNumber = 1;

/** A user with sensible defaults; pass only what the test is about. */
export function createTestUser(overrides: Partial<TestUser> = {}): TestUser {
	const number = nextUserNumber++;
	return {
		id: `user-${number}`,
		email: `jane.doe${number}@example.com`,
		name: `jane.doe${number}`,
		password: "correct horse battery",
		isAdmin: false,
		emailVerified: false,
		isAdminUnclaimed: false,
		theme: "system",
		language: "browser",
		...overrides,
	};
}

/** The JSON Better Auth answers GET /api/auth/get-session with for a signed-in user. */
export function buildSessionAnswer(user: TestUser) {
	const now = new Date();
	return {
		session: {
			id: `session-of-${user.id}`,
			token: `token-of-${user.id}`,
			userId: user.id,
			expiresAt: new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000).toISOString(),
			createdAt: now.toISOString(),
			updatedAt: now.toISOString(),
			ipAddress: "127.0.0.1",
			userAgent: "vitest",
		},
		user: {
			id: user.id,
			email: user.email,
			name: user.name,
			emailVerified: user.emailVerified,
			image: null,
			createdAt: now.toISOString(),
			updatedAt: now.toISOString(),
			isAdmin: user.isAdmin,
			isAdminUnclaimed: user.isAdminUnclaimed,
		},
	};
}

type FakeAuthServerOptions = {
	/** Who is signed in when the page loads; nobody when left out. */
	signedInAs?: TestUser;
	/** Accounts that exist and can sign in with their password. */
	accounts?: TestUser[];
	/** Whether POST /sign-in/social knows Google; the server answers 400 otherwise. */
	isGoogleConfigured?: boolean;
};

const CredentialsSchema = z.object({
	email: z.string(),
	password: z.string(),
	name: z.string().optional(),
});
type Credentials = z.infer<typeof CredentialsSchema>;

type RecordedRequest = { method: string; path: string; body: unknown };

/**
 * Answers Better Auth's endpoints at the network edge the way the real server does, keeping
 * who is signed in. Each test creates its own.
 */
function signedOutAnswer() {
	return HttpResponse.json(
		{ success: false, error: errorBody("AUTH_ERROR") },
		{ status: ERRORS.AUTH_ERROR.status },
	);
}

export function startFakeAuthServer(options: FakeAuthServerOptions = {}) {
	const accounts = new Map<string, TestUser>();
	for (const account of [
		...(options.accounts ?? []),
		...(options.signedInAs ? [options.signedInAs] : []),
	]) {
		accounts.set(account.email, account);
	}
	const state: { currentUser: TestUser | null; requests: RecordedRequest[] } = {
		currentUser: options.signedInAs ?? null,
		requests: [],
	};

	async function recordRequest(request: Request): Promise<unknown> {
		const body: unknown =
			request.method === "GET"
				? null
				: await request
						.clone()
						.json()
						.catch(() => null);
		state.requests.push({ method: request.method, path: new URL(request.url).pathname, body });
		return body;
	}

	function readCredentials(body: unknown): Credentials {
		const parsed = CredentialsSchema.safeParse(body);
		return parsed.success ? parsed.data : { email: "", password: "" };
	}

	mswServer.use(
		http.get("*/api/auth/get-session", async ({ request }) => {
			await recordRequest(request);
			return HttpResponse.json(state.currentUser ? buildSessionAnswer(state.currentUser) : null);
		}),
		http.post("*/api/auth/sign-in/email", async ({ request }) => {
			const { email, password } = readCredentials(await recordRequest(request));
			const account = accounts.get(email);
			if (!account || account.password !== password) {
				return HttpResponse.json(
					{ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" },
					{ status: 401 },
				);
			}
			state.currentUser = account;
			return HttpResponse.json({ redirect: false, token: "token", user: { id: account.id } });
		}),
		http.post("*/api/auth/sign-up/email", async ({ request }) => {
			const { email, password, name } = readCredentials(await recordRequest(request));
			if (accounts.has(email)) {
				return HttpResponse.json(
					{
						code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
						message: "User already exists. Use another email.",
					},
					{ status: 422 },
				);
			}
			const account = createTestUser({ email, password, name: name ?? email });
			accounts.set(email, account);
			state.currentUser = account;
			return HttpResponse.json({ token: "token", user: { id: account.id } });
		}),
		http.post("*/api/auth/sign-out", async ({ request }) => {
			await recordRequest(request);
			state.currentUser = null;
			return HttpResponse.json({ success: true });
		}),
		// The account's settings, as the user menu reads and changes them.
		http.get("*/api/account/settings", async ({ request }) => {
			await recordRequest(request);
			if (!state.currentUser) return signedOutAnswer();
			const { theme, language } = state.currentUser;
			return HttpResponse.json({ theme, language });
		}),
		http.patch("*/api/account/settings", async ({ request }) => {
			const body = await recordRequest(request);
			if (!state.currentUser) return signedOutAnswer();
			const changes = UpdateAccountSettingsRequestSchema.safeParse(body);
			if (!changes.success) {
				return HttpResponse.json(
					{ success: false, error: errorBody("VALIDATION_ERROR") },
					{ status: ERRORS.VALIDATION_ERROR.status },
				);
			}
			if (changes.data.theme) state.currentUser.theme = changes.data.theme;
			if (changes.data.language) state.currentUser.language = changes.data.language;
			const { theme, language } = state.currentUser;
			return HttpResponse.json({ theme, language });
		}),
		http.post("*/api/auth/sign-in/social", async ({ request }) => {
			await recordRequest(request);
			if (!options.isGoogleConfigured) {
				// The server answers this one itself, in its own error envelope, before Better Auth.
				return HttpResponse.json(
					{ success: false, error: errorBody("GOOGLE_NOT_CONFIGURED") },
					{ status: ERRORS.GOOGLE_NOT_CONFIGURED.status },
				);
			}
			// A same-document URL, because jsdom cannot leave the page.
			return HttpResponse.json({
				url: `${window.location.origin}/#google-consent`,
				redirect: true,
			});
		}),
	);

	return {
		/** The user the fake server currently considers signed in. */
		readCurrentUser: () => state.currentUser,
		/** The auth requests made so far, in order. */
		readRequests: (path?: string) =>
			state.requests.filter((request) => path === undefined || request.path === path),
	};
}
