import { type App, createApp } from "./app";
import { type Auth, createAuth, type GoogleConfig, migrateAuthTables } from "./auth/auth";
import type { Database } from "./db/database";
import { migrateToLatest } from "./db/migrations";
import type { StaticSite } from "./http/static-site";
import type { Logger } from "./logger";

export type ServerSettings = {
	baseUrl: string;
	secret: string;
	adminEmail: string | undefined;
	trustedOrigins: string[];
	google: GoogleConfig | undefined;
	isRateLimitEnabled: boolean;
	trustProxy: boolean;
	imageProvider: string;
};

export type Server = {
	app: App;
	auth: Auth;
	/** Stops background work; the caller closes the database it opened. */
	stop(): Promise<void>;
};

/**
 * Assembles the server on an open database: migrations, auth and the HTTP app. `main.ts` and the
 * tests both build the server this way, so tests run the code that production runs.
 */
export async function assembleServer(options: {
	database: Database;
	logger: Logger;
	settings: ServerSettings;
	site?: StaticSite;
}): Promise<Server> {
	const { database, logger, settings, site } = options;
	const auth = createAuth({
		pool: database.pool,
		baseUrl: settings.baseUrl,
		secret: settings.secret,
		adminEmail: settings.adminEmail,
		trustedOrigins: settings.trustedOrigins,
		google: settings.google,
		isRateLimitEnabled: settings.isRateLimitEnabled,
	});
	// Better Auth's tables first: ours reference its user table.
	await migrateAuthTables(auth);
	await migrateToLatest(database.db);
	const app = createApp({
		database,
		auth,
		logger,
		...(site ? { site } : {}),
		config: {
			baseUrl: settings.baseUrl,
			isGoogleEnabled: settings.google !== undefined,
			imageProvider: settings.imageProvider,
			trustProxy: settings.trustProxy,
		},
	});
	return {
		app,
		auth,
		async stop() {},
	};
}
