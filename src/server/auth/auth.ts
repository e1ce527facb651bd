import { betterAuth } from "better-auth";
import { getSessionCookie } from "better-auth/cookies";
import { getMigrations } from "better-auth/db/migration";
import { customSession, genericOAuth } from "better-auth/plugins";
import type pg from "pg";
import { MIN_PASSWORD_LENGTH } from "../../shared/constants";
import { isAdminEmail } from "../../shared/session";
import type { Logger } from "../logger";

/** The header the app sets, from the socket or a trusted proxy, so Better Auth can key rate limits. */
export const CLIENT_IP_HEADER = "x-atelier-client-ip";

export type GoogleConfig = {
	clientId: string;
	clientSecret: string;
	discoveryUrl: string;
};

export type AuthConfig = {
	pool: pg.Pool;
	baseUrl: string;
	secret: string;
	adminEmail: string | undefined;
	trustedOrigins: string[];
	google: GoogleConfig | undefined;
	isRateLimitEnabled: boolean;
	logger: Logger;
};

const AUTH_COOKIE_PREFIX = "atelier";

/**
 * Whether a request carries a session cookie, valid or not. Without one nobody is signed in, which
 * the pages can tell the browser without looking the session up.
 */
export function hasSessionCookie(headers: Headers): boolean {
	return getSessionCookie(headers, { cookiePrefix: AUTH_COOKIE_PREFIX }) !== null;
}

/** Builds Better Auth: e-mail and password, Google over OpenID Connect, cookie sessions in our database. */
export function createAuth(config: AuthConfig) {
	return betterAuth({
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
			maxPasswordLength: 128,
			autoSignIn: true,
		},
		session: {
			expiresIn: 60 * 60 * 24 * 30,
			updateAge: 60 * 60 * 24,
		},
		account: {
			accountLinking: { enabled: true, trustedProviders: ["google"] },
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
			customSession(async ({ user, session }) => ({
				user: { ...user, isAdmin: isAdminEmail(user.email, config.adminEmail) },
				session,
			})),
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
}

export type Auth = ReturnType<typeof createAuth>;

/** Creates or updates Better Auth's tables (the CLI for this needs Node 22, so we do it from code). */
export async function migrateAuthTables(auth: Auth): Promise<void> {
	const { runMigrations } = await getMigrations(auth.options);
	await runMigrations();
}
