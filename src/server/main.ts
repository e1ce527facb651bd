import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import type { PromptStyle } from "../shared/prompts/prompt-tool-responses";
import { serveBackupRequests } from "./backup/backup-requests";
import { parseEnv, resolveBaseUrl } from "./config/env";
import { loadPromptBlocklist, PromptBlocklistError } from "./config/prompt-blocklist";
import { readOrCreateSecret } from "./config/secret-file";
import { DataDirLockedError, lockDataDir } from "./db/data-dir-lock";
import { type Database, openEmbeddedDatabase, openPostgresDatabase } from "./db/database";
import { GENERATIONS_FOLDER } from "./generations/run/store-images";
import { keepIdleConnectionsOpen } from "./http/idle-connections";
import { loadStaticSite } from "./http/static-site";
import { createLogger } from "./logging/logger";
import { loadModelCatalogue, ModelsFileError } from "./models/load-model-catalogue";
import type { ModelCatalogue } from "./models/model-catalogue";
import { DEFAULT_ENHANCE_INSTRUCTION } from "./prompts/enhance-prompt";
import { loadStylesFile, StylesFileError } from "./prompts/load-styles-file";
import { createOpenAiModeration } from "./providers/openai/openai-moderation";
import { DEFAULT_PUSH_SETTINGS } from "./push/push-settings";
import { isVapidKeyPair } from "./push/vapid-keys";
import { limitProcessMemory } from "./runtime/process-memory";
import { assembleServer, DEFAULT_RUN_SETTINGS, DEFAULT_WEBHOOK_SETTINGS } from "./server";
import { DEFAULT_SHARING_SETTINGS } from "./sharing/share-settings";
import { createHoldableStorage } from "./storage/deletion-hold";
import { createLocalStorage } from "./storage/local-storage";
import { createS3Storage } from "./storage/s3-storage";

function fail(message: string): never {
	process.stderr.write(`${message}\n`);
	process.exit(1);
}

async function main() {
	const parsed = parseEnv(process.env);
	if (!parsed.ok) {
		fail(
			`Atelier cannot start. Fix these environment variables (see .env.example):\n${parsed.problems
				.map((problem) => `  - ${problem}`)
				.join("\n")}`,
		);
	}
	const env = parsed.env;
	limitProcessMemory();
	const logger = createLogger(env.LOG_LEVEL);
	const baseUrl = resolveBaseUrl(env);
	const dataDir = path.resolve(env.DATA_DIR);

	let releaseLock: (() => Promise<void>) | undefined;
	let database: Database;
	if (env.DATABASE_URL) {
		database = openPostgresDatabase(env.DATABASE_URL, logger, { max: env.DATABASE_POOL_MAX });
	} else {
		try {
			releaseLock = (await lockDataDir(dataDir)).release;
		} catch (error) {
			if (error instanceof DataDirLockedError) fail(error.message);
			throw error;
		}
		database = await openEmbeddedDatabase(path.join(dataDir, "db"), {
			isOptimized: env.EMBEDDED_DATABASE_OPTIMIZE,
		});
	}

	const secret = env.BETTER_AUTH_SECRET ?? (await readOrCreateSecret(dataDir));
	const vapidKeys =
		env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
			? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
			: undefined;
	if (vapidKeys && !isVapidKeyPair(vapidKeys)) {
		fail("Atelier cannot start: VAPID_PRIVATE_KEY is not the private key of VAPID_PUBLIC_KEY.");
	}
	const google =
		env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
			? {
					clientId: env.GOOGLE_CLIENT_ID,
					clientSecret: env.GOOGLE_CLIENT_SECRET,
					discoveryUrl: env.GOOGLE_DISCOVERY_URL,
				}
			: undefined;
	const webRoot = fileURLToPath(new URL("../web", import.meta.url));
	// In development Vite serves the web app and proxies /api here.
	const site = env.NODE_ENV === "development" ? undefined : await loadStaticSite(webRoot);
	let models: ModelCatalogue;
	try {
		models = loadModelCatalogue(env);
	} catch (error) {
		if (!(error instanceof ModelsFileError)) throw error;
		fail(
			`Atelier cannot start. Fix the models:\n${error.problems.map((problem) => `  - ${problem}`).join("\n")}`,
		);
	}
	let promptBlocklist: Awaited<ReturnType<typeof loadPromptBlocklist>>;
	try {
		promptBlocklist = await loadPromptBlocklist(env.PROMPT_BLOCKLIST_FILE);
	} catch (error) {
		if (!(error instanceof PromptBlocklistError)) throw error;
		fail(
			`Atelier cannot start. Fix PROMPT_BLOCKLIST_FILE:\n${error.problems.map((problem) => `  - ${problem}`).join("\n")}`,
		);
	}
	let styles: readonly PromptStyle[];
	try {
		styles = loadStylesFile(env.STYLES_FILE);
	} catch (error) {
		if (!(error instanceof StylesFileError)) throw error;
		fail(
			`Atelier cannot start. Fix the styles:\n${error.problems.map((problem) => `  - ${problem}`).join("\n")}`,
		);
	}
	const imagesRoot = path.join(dataDir, "images");
	// Held while a backup copies the images its database dump names (docs/decisions/017-backups.md).
	const storage = createHoldableStorage(
		env.STORAGE === "s3" && env.S3_BUCKET
			? createS3Storage({
					bucket: env.S3_BUCKET,
					region: env.S3_REGION,
					forcePathStyle: env.S3_FORCE_PATH_STYLE,
					prefix: env.S3_PREFIX,
					...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
					...(env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID } : {}),
					...(env.S3_SECRET_ACCESS_KEY ? { secretAccessKey: env.S3_SECRET_ACCESS_KEY } : {}),
				})
			: createLocalStorage(imagesRoot),
		GENERATIONS_FOLDER,
	);
	const { app, stop, markShuttingDown, endWaits } = await assembleServer({
		database,
		logger,
		models,
		storage: storage.storage,
		...(site ? { site } : {}),
		settings: {
			baseUrl,
			secret,
			adminEmail: env.ADMIN_EMAIL,
			trustedOrigins: env.TRUSTED_ORIGINS?.split(",").map((origin) => origin.trim()) ?? [],
			google,
			isRateLimitEnabled: env.AUTH_RATE_LIMIT_ENABLED,
			trustProxy: env.TRUST_PROXY,
			mail: {
				smtpUrl: env.SMTP_URL,
				from: env.MAIL_FROM ?? `Atelier <no-reply@${new URL(baseUrl).hostname}>`,
			},
			requireEmailVerification: env.REQUIRE_EMAIL_VERIFICATION,
			limits: {
				maxActivePerUser: env.MAX_ACTIVE_GENERATIONS_PER_USER,
				dailyLimitPerUser: env.DAILY_GENERATIONS_PER_USER,
				maxBatchGenerations: env.MAX_BATCH_GENERATIONS,
				trashDays: env.TRASH_DAYS,
			},
			concurrency: env.GENERATION_CONCURRENCY,
			apiTokenRequestsPerMinute: env.API_TOKEN_RATE_LIMIT_PER_MINUTE,
			...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
			webhooks: {
				...DEFAULT_WEBHOOK_SETTINGS,
				allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
				retryDelaysMs: env.WEBHOOK_RETRY_DELAYS_SECONDS ?? DEFAULT_WEBHOOK_SETTINGS.retryDelaysMs,
			},
			push: {
				...DEFAULT_PUSH_SETTINGS,
				isEnabled: env.WEB_PUSH === "on",
				allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
				...(vapidKeys ? { vapidKeys } : {}),
				...(env.VAPID_SUBJECT ? { subject: env.VAPID_SUBJECT } : {}),
			},
			promptBlocklist,
			sharing: {
				...DEFAULT_SHARING_SETTINGS,
				mode: env.SHARING,
				maxDays: env.SHARE_MAX_DAYS,
				checkImages:
					env.SHARE_MODERATION === "openai" && env.OPENAI_API_KEY
						? createOpenAiModeration({ apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL })
						: undefined,
			},
			styles,
			...(env.ENHANCE_BASE_URL && env.ENHANCE_API_KEY && env.ENHANCE_MODEL
				? {
						enhance: {
							baseUrl: env.ENHANCE_BASE_URL,
							apiKey: env.ENHANCE_API_KEY,
							model: env.ENHANCE_MODEL,
							instruction: env.ENHANCE_INSTRUCTION ?? DEFAULT_ENHANCE_INSTRUCTION,
							perHour: env.ENHANCE_PER_HOUR,
						},
					}
				: {}),
			run: {
				...DEFAULT_RUN_SETTINGS,
				timeoutMs: env.GENERATION_TIMEOUT_MS,
				downloadMaxBytes: env.IMAGE_DOWNLOAD_MAX_BYTES,
				// The local engine answers at once; a hosted API is asked about once a second.
				providerPollMs: models.models.every((model) => model.provider.name === "local")
					? 100
					: DEFAULT_RUN_SETTINGS.providerPollMs,
			},
		},
	});

	// `npm run backup` asks the embedded server for a snapshot through the data folder.
	const backups = env.DATABASE_URL
		? undefined
		: await serveBackupRequests({
				dataDir,
				database,
				imagesRoot: env.STORAGE === "s3" ? undefined : imagesRoot,
				holdDeletions: storage.holdDeletions,
				logger,
			});

	const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
		logger.info("Atelier is listening", {
			url: baseUrl,
			address: `${info.address}:${info.port}`,
			database: database.kind,
			models: models.models.map((model) => `${model.id} (${model.provider.name})`),
			storage: env.STORAGE,
			mail: env.SMTP_URL ? "smtp" : "log",
			requireEmailVerification: env.REQUIRE_EMAIL_VERIFICATION,
			dataDir: env.DATABASE_URL ? undefined : dataDir,
		});
		if (!env.SMTP_URL) {
			logger.info(
				"no SMTP_URL: password-reset and verification e-mails are written to this log with their links",
			);
		}
	});
	keepIdleConnectionsOpen(server);

	let isShuttingDown = false;
	const shutdown = async (signal: string) => {
		if (isShuttingDown) return;
		isShuttingDown = true;
		// A load balancer probing /api/ready stops sending requests once it sees 503; until it has,
		// the port keeps answering. Ctrl+C in a terminal has nobody to tell, so it skips the wait.
		markShuttingDown();
		// From now on every answer ends its connection. A client that keeps one connection alive
		// and busy (a load balancer's probe, a polling browser) would otherwise be served on it
		// for ever after the port closes, and hold the exit until the force timer.
		server.on("request", (_request, response) => response.setHeader("connection", "close"));
		const drainMs = signal === "SIGTERM" ? env.READY_DRAIN_MS : 0;
		logger.info("shutting down", { signal, drainMs });
		if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
		const forceTimer = setTimeout(() => {
			logger.warn("in-flight requests did not finish in time; closing them");
			if ("closeAllConnections" in server) server.closeAllConnections();
		}, env.SHUTDOWN_TIMEOUT_MS);
		forceTimer.unref();
		// Stop accepting, let in-flight requests finish, then close the database. Long polls answer
		// at once (their browsers ask again elsewhere) instead of holding the exit for their wait.
		endWaits();
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			if ("closeIdleConnections" in server) server.closeIdleConnections();
		});
		clearTimeout(forceTimer);
		await backups?.stop();
		await stop().catch((error) => logger.error("stopping background work failed", { error }));
		await database.close().catch((error) => logger.error("closing the database failed", { error }));
		await releaseLock?.();
		logger.info("stopped");
		process.exit(0);
	};
	process.once("SIGINT", () => void shutdown("SIGINT"));
	process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
	process.stderr.write(
		`Atelier failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
