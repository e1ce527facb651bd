import { GENERATION_TIMEOUT_MS, MAX_RETRIES, RETRY_DELAY_MS } from "../shared/core/constants";
import { DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES } from "../shared/image-input/image-types";
import type { PromptStyle } from "../shared/prompts/prompt-tool-responses";
import { readLanguageSetting } from "./accounts/account-settings-repository";
import { removeAccountContents } from "./accounts/delete-account";
import { type App, createApp } from "./app";
import { type Auth, createAuth, type GoogleConfig } from "./auth/auth";
import { migrateAuthTables } from "./auth/auth-user-tables";
import type { PromptBlocklist } from "./config/prompt-blocklist";
import type { Database } from "./db/database";
import { keepStatisticsFresh } from "./db/embedded-statistics";
import { migrateToLatest } from "./db/migrations";
import { withStartupLock } from "./db/startup-lock";
import {
	DEFAULT_TRASH_DAYS,
	type GenerationDeps,
	type GenerationLimits,
} from "./generations/generation-deps";
import { listenForGenerationChanges } from "./generations/generation-events";
import { fillUnrecordedPrices } from "./generations/generation-repository";
import { GENERATION_RECOVERY } from "./generations/run/generation-lifecycle";
import { type GenerationRunSettings, runNextGeneration } from "./generations/run/run-generation";
import { keepStorageSwept } from "./generations/run/sweep-stray-objects";
import { keepTrashPurged } from "./generations/trash/trash";
import type { StaticSite } from "./http/static-site";
import { downloadImage } from "./images/download-image";
import { type GenerationQueue, startGenerationQueue } from "./jobs/generation-queue";
import { startJobQueue, stopJobQueue } from "./jobs/job-queue";
import { type PushQueue, startPushQueue } from "./jobs/push-queue";
import { startWebhookQueue, type WebhookQueue } from "./jobs/webhook-queue";
import type { Logger } from "./logging/logger";
import { createMailer, type MailConfig } from "./mail/mailer";
import { catalogueOfOne, type ModelCatalogue } from "./models/model-catalogue";
import { lookupAddresses } from "./net/guarded-agent";
import { createMetrics } from "./observability/metrics";
import { createReadinessCheck, type ReadinessCheck } from "./observability/readiness";
import { isPersonDisabled } from "./person/person-controls";
import type { EnhanceSettings } from "./prompts/enhance-prompt";
import type { ImageProvider } from "./providers/types";
import { attemptPush, type PushDeps, queueGenerationPush } from "./push/push-deliveries";
import { DEFAULT_PUSH_SETTINGS, type PushSettings, resolveVapid } from "./push/push-settings";
import { revokeSharesOfGenerations } from "./sharing/share-repository";
import { DEFAULT_SHARING_SETTINGS, type SharingSettings } from "./sharing/share-settings";
import { createSignedUrls } from "./storage/signed-urls";
import type { Storage } from "./storage/storage";
import {
	attemptDelivery,
	MAX_PENDING_DELIVERIES,
	queueDeletionEvents,
	queueGenerationEvent,
	STANDARD_RETRY_DELAYS_MS,
	WEBHOOK_TIMEOUT_MS,
	type WebhookDeps,
	type WebhookSettings,
} from "./webhooks/webhook-deliveries";
import { keepWebhooksMaintained } from "./webhooks/webhook-maintenance";

export type ServerSettings = {
	baseUrl: string;
	secret: string;
	adminEmail: string | undefined;
	trustedOrigins: string[];
	google: GoogleConfig | undefined;
	isRateLimitEnabled: boolean;
	trustProxy: boolean;
	/** Where password-reset and verification e-mails go: SMTP, or the log without SMTP_URL. */
	mail: MailConfig;
	requireEmailVerification: boolean;
	/** Password hashing's turns (auth/password-hashing.ts); its defaults unless a test narrows them. */
	passwordHashing?: { concurrency?: number; maxWaitMs?: number };
	limits: GenerationLimits;
	/** How many generations this process runs at once. */
	concurrency: number;
	run: GenerationRunSettings;
	/** Serves GET /metrics to a caller with this bearer token (METRICS_TOKEN); off without it. */
	metricsToken?: string;
	/** Requests one API token may make in a minute (API_TOKEN_RATE_LIMIT_PER_MINUTE). */
	apiTokenRequestsPerMinute: number;
	/** Where webhooks may go, how long an attempt may take, and the waits between attempts. */
	webhooks: WebhookSettings;
	/** Web Push (WEB_PUSH, the VAPID keys and subject); DEFAULT_PUSH_SETTINGS when not given. */
	push?: PushSettings;
	/** Shared links (SHARING, SHARE_MAX_DAYS, SHARE_MODERATION); DEFAULT_SHARING_SETTINGS when not given. */
	sharing?: SharingSettings;
	/** PROMPT_BLOCKLIST_FILE, read at start: refused when generating and when sharing. */
	promptBlocklist?: PromptBlocklist;
	/** The operator's styles (STYLES_FILE, prompts/load-styles-file.ts); none when not given. */
	styles?: readonly PromptStyle[];
	/** Enhance's chat endpoint and hourly limit (ENHANCE_*); without it, Enhance is off. */
	enhance?: EnhanceSettings;
};

/**
 * Public https targets only, 10 s an attempt, the Standard Webhooks retry schedule, 100 deliveries
 * waiting an endpoint.
 */
export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
	allowPrivateTargets: false,
	resolveHost: lookupAddresses,
	timeoutMs: WEBHOOK_TIMEOUT_MS,
	retryDelaysMs: STANDARD_RETRY_DELAYS_MS,
	maxPendingDeliveries: MAX_PENDING_DELIVERIES,
};

export const DEFAULT_RUN_SETTINGS: GenerationRunSettings = {
	timeoutMs: GENERATION_TIMEOUT_MS,
	maxRetries: MAX_RETRIES,
	retryDelayMs: RETRY_DELAY_MS,
	providerPollMs: 1_000,
	leaseMs: 15_000,
	downloadMaxBytes: DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES,
	downloadTimeoutMs: 60_000,
};

export type Server = {
	app: App;
	auth: Auth;
	queue: GenerationQueue;
	/** The webhook attempts' queue, which the hourly upkeep (webhook-maintenance.ts) refills. */
	webhookQueue: WebhookQueue;
	/** The push attempts' queue. */
	pushQueue: PushQueue;
	/** /api/ready answers 503 from now on, while the process drains before it stops. */
	markShuttingDown: ReadinessCheck["markShuttingDown"];
	/** Every long poll answers now, and later ones at once: called as the port closes. */
	endWaits(): void;
	/** How many long polls and streams wait on a change of `key` (a generation's id, the queue). */
	countWaits(key: string): number;
	/** Stops background work; the caller closes the database it opened. */
	stop(): Promise<void>;
};

/**
 * Assembles the server on an open database: migrations, auth, the generation queue and its
 * workers, and the HTTP app. `main.ts` and the tests both build the server this way, so tests run
 * the code that production runs.
 */
export async function assembleServer(options: {
	database: Database;
	logger: Logger;
	settings: ServerSettings;
	storage: Storage;
	/** The models offered (loadModelCatalogue), or one provider offered as the only model. */
	models: ModelCatalogue | ImageProvider;
	site?: StaticSite;
	/** False for tooling that only needs the schema and the app (no workers). */
	isWorkerEnabled?: boolean;
}): Promise<Server> {
	const { database, logger, settings, site, storage } = options;
	const models = "start" in options.models ? catalogueOfOne(options.models) : options.models;
	const mailer = createMailer(settings.mail, logger);
	const deletionDeps = { database, storage, models, logger };
	const metrics = createMetrics({
		database,
		logger,
		withProcessMetrics: settings.metricsToken !== undefined,
	});
	const readiness = createReadinessCheck({ database, storage, logger });
	const signedUrls = createSignedUrls({
		storage,
		baseUrl: settings.baseUrl,
		secret: settings.secret,
	});
	const auth = createAuth({
		pool: database.pool,
		db: database.db,
		baseUrl: settings.baseUrl,
		secret: settings.secret,
		adminEmail: settings.adminEmail,
		trustedOrigins: settings.trustedOrigins,
		google: settings.google,
		isRateLimitEnabled: settings.isRateLimitEnabled,
		logger,
		mailer,
		requireEmailVerification: settings.requireEmailVerification,
		passwordHashing: settings.passwordHashing,
		beforeDeleteUser: (user) => removeAccountContents(deletionDeps, user),
		isPersonDisabled: (userId) => isPersonDisabled(database.db, userId),
		readLanguageSetting: (userId) => readLanguageSetting(database.db, userId),
	});
	const workerConcurrency = options.isWorkerEnabled === false ? 0 : settings.concurrency;
	const webhookBase = {
		db: database.db,
		serverSecret: settings.secret,
		settings: settings.webhooks,
		logger,
	};
	const pushSettings = settings.push ?? DEFAULT_PUSH_SETTINGS;
	const pushBase = {
		db: database.db,
		settings: pushSettings,
		vapid: resolveVapid(pushSettings, settings),
		logger,
	};
	// Set once the process listens for generation changes: wakes its push slots when a generation
	// whose pushes were queued has committed its end (its change notice comes at commit), instead of
	// at their next look a second later.
	let wakePushesAfterCommit: ((generationId: string) => void) | undefined;
	const { boss, queue, webhookQueue, pushQueue } = await withStartupLock(database, async () => {
		// Better Auth's tables first: ours reference its user table. pg-boss creates its own at start.
		await migrateAuthTables(auth);
		await migrateToLatest(database.db);
		await fillUnrecordedPrices(database.db, models);
		const boss = await startJobQueue({ database, logger });
		const webhookQueue: WebhookQueue = await startWebhookQueue({
			boss,
			logger,
			concurrency: workerConcurrency,
			attemptTimeoutMs: settings.webhooks.timeoutMs,
			deliver: (job, queue, jobId) => attemptDelivery({ ...webhookBase, queue }, job, jobId),
		});
		const pushQueue = await startPushQueue({
			boss,
			logger,
			concurrency: workerConcurrency,
			attemptTimeoutMs: pushSettings.timeoutMs,
			deliver: (job, queue) => attemptPush({ ...pushBase, queue }, job),
		});
		const queue = await startGenerationQueue({
			boss,
			database,
			logger,
			concurrency: workerConcurrency,
			leaseMs: settings.run.leaseMs,
			timeoutMs: settings.run.timeoutMs,
			isSoleProcess: database.kind === "pglite",
			recovery: GENERATION_RECOVERY,
			run: () =>
				runNextGeneration({
					db: database.db,
					models,
					storage,
					downloadImage,
					signedUrls,
					logger,
					settings: settings.run,
					metrics: metrics.generations,
					onFinished: async (transaction, generation) => {
						await queueGenerationEvent(
							transaction,
							{ queue: webhookQueue, maxPending: settings.webhooks.maxPendingDeliveries },
							generation,
						);
						const pushes = await queueGenerationPush(
							transaction,
							{ ...pushBase, queue: pushQueue },
							generation,
						);
						if (pushes > 0) wakePushesAfterCommit?.(generation.id);
					},
				}),
		});
		return { boss, queue, webhookQueue, pushQueue };
	});
	const webhookDeps: WebhookDeps = { ...webhookBase, queue: webhookQueue };
	const pushDeps: PushDeps = { ...pushBase, queue: pushQueue };
	const events = await listenForGenerationChanges(database, logger);
	wakePushesAfterCommit = (generationId) =>
		void events.waitForChange(generationId, 5_000).then(() => pushQueue.wake());
	// PostgreSQL's autovacuum keeps its statistics; PGlite has none.
	const stopStatistics =
		database.kind === "pglite" ? keepStatisticsFresh(database, logger) : () => {};
	// Workers store images, so they also remove what no generation names any more.
	const stopSweeping =
		options.isWorkerEnabled === false
			? () => {}
			: keepStorageSwept({ db: database.db, storage }, logger);
	const stopWebhookUpkeep =
		options.isWorkerEnabled === false
			? () => {}
			: keepWebhooksMaintained({ db: database.db, queue: webhookQueue }, logger);

	const generationDeps: GenerationDeps = {
		database,
		storage,
		queue,
		events,
		models,
		limits: settings.limits,
		logger,
		...(settings.promptBlocklist ? { promptBlocklist: settings.promptBlocklist } : {}),
		onDeleted: async (transaction, rows, permanent) => {
			await queueDeletionEvents(
				transaction,
				{ queue: webhookQueue, maxPending: settings.webhooks.maxPendingDeliveries },
				rows,
				permanent,
			);
			// A generation deleted for good leaves its links without a target; one moved to the
			// Trash ends them here, so that restoring it opens none of them again.
			if (!permanent) {
				await revokeSharesOfGenerations(
					transaction,
					rows.map((row) => row.id),
				);
			}
		},
		operatorStyles: settings.styles ?? [],
	};
	const stopPurging =
		options.isWorkerEnabled === false ? () => {} : keepTrashPurged(generationDeps, logger);
	const app = createApp({
		database,
		auth,
		logger,
		...(site ? { site } : {}),
		generations: generationDeps,
		webhooks: webhookDeps,
		push: pushDeps,
		sharing: {
			settings: settings.sharing ?? DEFAULT_SHARING_SETTINGS,
			promptBlocklist: settings.promptBlocklist,
		},
		observability: { metrics, readiness, metricsToken: settings.metricsToken },
		signedUrls,
		enhance: settings.enhance,
		config: {
			baseUrl: settings.baseUrl,
			trustedOrigins: settings.trustedOrigins,
			isGoogleEnabled: settings.google !== undefined,
			// What the generator's note about the offline engine looks at: the default model's provider.
			imageProvider: models.defaultModel().provider.name,
			hasModelChoice: models.models.length > 1,
			hasTrash: (settings.limits.trashDays ?? DEFAULT_TRASH_DAYS) > 0,
			trustProxy: settings.trustProxy,
			isRateLimitEnabled: settings.isRateLimitEnabled,
			requireEmailVerification: settings.requireEmailVerification,
			adminEmail: settings.adminEmail,
			apiTokenRequestsPerMinute: settings.apiTokenRequestsPerMinute,
		},
	});
	return {
		app,
		auth,
		queue,
		webhookQueue,
		pushQueue,
		markShuttingDown: readiness.markShuttingDown,
		endWaits: () => events.endWaits(),
		countWaits: (key) => events.countWaits(key),
		async stop() {
			stopStatistics();
			stopSweeping();
			stopPurging();
			stopWebhookUpkeep();
			queue.stop();
			await webhookQueue.stop();
			await pushQueue.stop();
			await stopJobQueue(boss);
			await queue.drain();
			await events.close();
			await mailer.close();
		},
	};
}
