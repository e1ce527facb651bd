import { betterAuth, getCurrentAdapter } from "better-auth";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { getSessionCookie } from "better-auth/cookies";
import { customSession, genericOAuth } from "better-auth/plugins";
import type { Kysely } from "kysely";
import type pg from "pg";
import type { LanguageChoice } from "../../shared/account/account-settings";
import { isAdminEmail } from "../../shared/account/session";
import { MIN_PASSWORD_LENGTH } from "../../shared/core/constants";
import { ERRORS } from "../../shared/core/errors";
import { isDatabaseUnavailableError } from "../db/database";
import type { DatabaseSchema } from "../db/schema";
import { languageCookieForAccount, readRequestLanguage } from "../i18n/request-language";
import type { Logger } from "../logging/logger";
import type { Mailer } from "../mail/mailer";
import {
	createAdministratorClaimMessage,
	createPasswordResetMessage,
	createVerificationMessage,
} from "../mail/messages";
import { findAdministratorStanding } from "./administrator";
import { createPasswordHasher } from "./password-hashing";
import { createPasswordResetSignIn } from "./password-reset-sign-in";
import { hashBeforeSignUp, MAX_PASSWORD_LENGTH } from "./sign-up-hashing";
import { type AccountTakeBack, takeAccountBack } from "./take-account-back";
import { claimAfterSignUp, takeBackAfterPasswordChange } from "./take-back-hooks";

/** The header the app sets, from the socket or a trusted proxy, so Better Auth can key rate limits. */
export const CLIENT_IP_HEADER = "x-atelier-client-ip";

export type GoogleConfig = {
	clientId: string;
	clientSecret: string;
	discoveryUrl: string;
};

type AuthConfig = {
	pool: pg.Pool;
	/** The same database through Kysely: the administrator's claim, taking an account back. */
	db: Kysely<DatabaseSchema>;
	baseUrl: string;
	secret: string;
	adminEmail: string | undefined;
	trustedOrigins: string[];
	google: GoogleConfig | undefined;
	isRateLimitEnabled: boolean;
	logger: Logger;
	mailer: Mailer;
	/** Until their address is verified, people may look around but not generate. */
	requireEmailVerification: boolean;
	/** How many passwords are hashed at once and how long a turn is waited for; defaults suit most. */
	passwordHashing?: { concurrency?: number; maxWaitMs?: number };
	/**
	 * Removes everything Atelier keeps for a person (generations, stored images, running jobs)
	 * before Better Auth deletes the user, their sessions and accounts.
	 */
	beforeDeleteUser?: (user: { id: string; email: string }) => Promise<void>;
	/**
	 * Whether the administrator disabled this person (people/person-controls.ts): they may not
	 * sign in (the gate, auth/request-viewer.ts, refuses a session of theirs).
	 */
	isPersonDisabled?: (userId: string) => Promise<boolean>;
	/** The language a person chose (accounts/account-settings-repository.ts), which mail is in. */
	readLanguageSetting?: (userId: string) => Promise<LanguageChoice>;
};

/** Reset and verification links live one hour, and a reset link works once. */
const ACCOUNT_LINK_LIFETIME_SECONDS = 60 * 60;

/** The web page a link from an e-mail lands on, whatever the client asked for. */
function landOn(url: string, page: string): string {
	const link = new URL(url);
	link.searchParams.set("callbackURL", page);
	return link.toString();
}

const AUTH_COOKIE_PREFIX = "atelier";

/** Where Google sends the browser back: Better Auth's callback route, or the OAuth plugin's. */
function isOAuthCallback(path: string): boolean {
	return path.startsWith("/callback/") || path.startsWith("/oauth2/callback/");
}

/**
 * Whether a request carries a session cookie, valid or not. Without one nobody is signed in, which
 * the pages can tell the browser without looking the session up.
 */
export function hasSessionCookie(headers: Headers): boolean {
	return getSessionCookie(headers, { cookiePrefix: AUTH_COOKIE_PREFIX }) !== null;
}

/** Builds Better Auth: e-mail and password, Google over OpenID Connect, cookie sessions in our database. */
export function createAuth(config: AuthConfig) {
	const { hash, verify } = createPasswordHasher(config.passwordHashing);
	const standingOf = (user: { id: string; email: string }) =>
		findAdministratorStanding(config.db, user, config.adminEmail);
	const takeBack = (takeBack: Omit<AccountTakeBack, "adminEmail">) =>
		takeAccountBack(config.db, { ...takeBack, adminEmail: config.adminEmail });
	const resetSignIn = createPasswordResetSignIn({
		takeAccountBack: (user) =>
			takeBack({
				userId: user.id,
				email: user.email,
				isPasswordRemoved: false,
				isAddressProven: true,
			}),
	});
	// The administrator's address is claimed through a reset link, whose opener chooses the
	// password (decision 022); Better Auth makes the link and sendResetPassword words the mail.
	// An e-mail is written in its person's language: the account's setting, else the asking browser's.
	const languageOf = async (user: { id: string }, request: Request | undefined) =>
		readRequestLanguage(request?.headers, await config.readLanguageSetting?.(user.id));
	const sendAdministratorClaim = async (email: string) => {
		try {
			await auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" } });
		} catch (error) {
			config.logger.error("Could not send the administrator's claim link", {
				error: error instanceof Error ? error.message : String(error),
			});
		}
	};

	const auth = betterAuth({
		appName: "Atelier",
		baseURL: config.baseUrl,
		basePath: "/api/auth",
		secret: config.secret,
		database: config.pool,
		trustedOrigins: [config.baseUrl, ...config.trustedOrigins],
		telemetry: { enabled: false },
		// Better Auth's own messages join our JSON log lines instead of going to the console.
		logger: {
			log: (level, message, ...details) => {
				const fields = details.length > 0 ? { details: details.map(String) } : undefined;
				if (level === "error") config.logger.error(`auth: ${message}`, fields);
				else if (level === "warn") config.logger.warn(`auth: ${message}`, fields);
				else config.logger.debug(`auth: ${message}`, fields);
			},
		},
		emailAndPassword: {
			enabled: true,
			minPasswordLength: MIN_PASSWORD_LENGTH,
			maxPasswordLength: MAX_PASSWORD_LENGTH,
			autoSignIn: true,
			password: { hash: (password) => hash(password), verify },
			resetPasswordTokenExpiresIn: ACCOUNT_LINK_LIFETIME_SECONDS,
			// Whoever had the old password is signed out everywhere; the app signs this browser in.
			revokeSessionsOnPasswordReset: true,
			// Not awaited, so the answer takes as long whether or not the address has an account.
			sendResetPassword: async ({ user, url }, request) => {
				const message = {
					to: user.email,
					link: landOn(url, "/reset-password"),
					language: await languageOf(user, request),
				};
				config.mailer.sendInBackground(
					(await standingOf(user)) === "unclaimed"
						? createAdministratorClaimMessage(message)
						: createPasswordResetMessage(message),
				);
			},
			// The after hook below counts the address verified and signs this browser in.
			onPasswordReset: resetSignIn.onPasswordReset,
		},
		emailVerification: {
			sendOnSignUp: config.requireEmailVerification,
			autoSignInAfterVerification: false,
			expiresIn: ACCOUNT_LINK_LIFETIME_SECONDS,
			sendVerificationEmail: async ({ user, url }, request) => {
				// The ordinary link would leave the first sign-up's password in place: the
				// administrator's address is proven by the claim link instead.
				if ((await standingOf(user)) === "unclaimed") {
					await sendAdministratorClaim(user.email);
					return;
				}
				config.mailer.sendInBackground(
					createVerificationMessage({
						to: user.email,
						link: landOn(url, "/verify-email"),
						language: await languageOf(user, request),
					}),
				);
			},
		},
		user: {
			deleteUser: {
				enabled: true,
				beforeDelete: async (user) => {
					// The administrator is named by the configuration; the account must stay.
					if (isAdminEmail(user.email, config.adminEmail)) {
						throw new APIError("FORBIDDEN", {
							code: "ADMIN_ACCOUNT_PROTECTED",
							message: ERRORS.ADMIN_ACCOUNT_PROTECTED.message,
						});
					}
					await config.beforeDeleteUser?.({ id: user.id, email: user.email });
				},
			},
		},
		databaseHooks: {
			account: {
				create: {
					// Google over an account whose password was chosen before anyone proved the address:
					// the Google account's holder takes it over (decision 023). Better Auth links the two
					// and then counts the address verified; the password and all made with it end first.
					after: async (account, context) => {
						if (account.providerId !== "google" || !context) return;
						const adapter = context.context.internalAdapter;
						const user = await adapter.findUserById(account.userId);
						if (!user || user.emailVerified) return;
						if (!(await adapter.findCredentialAccount(user.id))) return;
						await takeBack({
							userId: user.id,
							email: user.email,
							isPasswordRemoved: true,
							isAddressProven: false,
						});
					},
				},
			},
			session: {
				create: {
					// Every way of signing in makes a session: a disabled person gets none, and is told why.
					// Not inside Better Auth's own transaction (sign-up, a password change): there a query
					// on another connection would wait for it forever on the embedded database (one
					// connection at a time). Those are made for a new person, or one already signed in,
					// whose session the gate (auth/request-viewer.ts) refuses anyway if they are disabled.
					before: async (session, context) => {
						const adapter = context?.context.adapter;
						if (adapter && (await getCurrentAdapter(adapter)) !== adapter) return;
						if (await config.isPersonDisabled?.(session.userId)) {
							throw new APIError("FORBIDDEN", {
								code: "ACCOUNT_DISABLED",
								message: ERRORS.ACCOUNT_DISABLED.message,
							});
						}
					},
					// A signing-in browser gets the account's language cookie (its first page is then in
					// it). Google proves the administrator's address: the first Google sign-in to the
					// unclaimed account claims it, ending the password and all made before.
					after: async (session, context) => {
						if (!context) return;
						const cookie = languageCookieForAccount(
							(await config.readLanguageSetting?.(session.userId)) ?? "browser",
							context.request?.headers ?? context.headers,
						);
						if (cookie) {
							context.setCookie(cookie.name, cookie.value, {
								path: "/",
								maxAge: cookie.maxAge,
								sameSite: "lax",
							});
						}
						if (!isOAuthCallback(context.path)) return;
						const user = await context.context.internalAdapter.findUserById(session.userId);
						if (!user?.emailVerified || (await standingOf(user)) !== "unclaimed") return;
						await takeBack({
							userId: user.id,
							email: user.email,
							keepSessionToken: session.token,
							isPasswordRemoved: true,
							isAddressProven: true,
						});
					},
				},
			},
			user: {
				delete: {
					// Better Auth removes sessions and accounts; unused reset links would stay behind.
					after: async (user, context) => {
						if (context) await forgetVerifications(context.context.adapter, user.id);
					},
				},
			},
		},
		hooks: {
			// The password is hashed before sign-up's transaction (sign-up-hashing.ts).
			before: hashBeforeSignUp(hash),
			// Some endpoints (get-session) turn any failure into their own 500, "Failed to get
			// session". When the cause is a database that cannot be reached (every connection busy,
			// say), the app's error handler answers instead, with 503 and the catalogue's message.
			after: createAuthMiddleware(async (context) => {
				const returned = context.context.returned;
				await resetSignIn.afterReset(context, returned);
				await takeBackAfterPasswordChange(context, returned, takeBack);
				if (!config.requireEmailVerification) {
					// With REQUIRE_EMAIL_VERIFICATION the sign-up's verification mail is the claim already.
					await claimAfterSignUp(context, returned, config.adminEmail, sendAdministratorClaim);
				}
				if (
					isAPIError(returned) &&
					returned.statusCode >= 500 &&
					isDatabaseUnavailableError(returned)
				) {
					throw new Error("Better Auth could not reach the database", { cause: returned });
				}
			}),
		},
		// Errors other than Better Auth's own (a database that cannot be reached, say) go to the
		// app's error handler, which answers with the catalogue's envelope; Better Auth would answer
		// an empty 500.
		onAPIError: { throw: true },
		session: {
			expiresIn: 60 * 60 * 24 * 30,
			updateAge: 60 * 60 * 24,
		},
		account: {
			// A Google sign-in for an address held by an unverified password account takes it over
			// (the account hook above) rather than answering "account not linked", but only when
			// Google vouches for the address (its email_verified): Google is not a trusted provider,
			// so an account whose address Google has not verified links nothing.
			accountLinking: {
				enabled: true,
				requireLocalEmailVerified: false,
			},
		},
		rateLimit: {
			enabled: config.isRateLimitEnabled,
			storage: "database",
			window: 60,
			max: 120,
			customRules: {
				"/sign-in/email": { window: 60, max: 10 },
				"/sign-up/email": { window: 60, max: 10 },
				"/sign-in/social": { window: 60, max: 20 },
				// Per client; the app also limits these per e-mail address.
				"/request-password-reset": { window: 600, max: 5 },
				"/send-verification-email": { window: 600, max: 5 },
			},
		},
		advanced: {
			cookiePrefix: AUTH_COOKIE_PREFIX,
			// Explicit, because Better Auth turns the check off by itself when NODE_ENV is "test".
			disableOriginCheck: false,
			useSecureCookies: config.baseUrl.startsWith("https://"),
			defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
			ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
		},
		plugins: [
			customSession(async ({ user, session }) => {
				const standing = await standingOf(user);
				return {
					user: {
						...user,
						isAdmin: standing === "administrator",
						isAdminUnclaimed: standing === "unclaimed",
					},
					session,
				};
			}),
			genericOAuth({
				config: config.google
					? [
							{
								providerId: "google",
								clientId: config.google.clientId,
								clientSecret: config.google.clientSecret,
								discoveryUrl: config.google.discoveryUrl,
								scopes: ["openid", "email", "profile"],
								pkce: true,
							},
						]
					: [],
			}),
		],
	});

	return auth;
}

export type Auth = ReturnType<typeof createAuth>;

/** Unused reset and verification links of a user: Better Auth removes sessions and accounts only. */
export async function forgetVerifications(
	adapter: {
		deleteMany(query: {
			model: string;
			where: { field: string; value: string }[];
		}): Promise<unknown>;
	},
	userId: string,
): Promise<void> {
	await adapter.deleteMany({ model: "verification", where: [{ field: "value", value: userId }] });
}
