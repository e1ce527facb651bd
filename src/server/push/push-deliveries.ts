import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/i18n/languages";
import { pushTestBody, serverPushTestLimit } from "../../shared/i18n/messages";
import { finishNoticeTag, finishNoticeTitle } from "../../shared/notifications/finish-notice";
import { NOTIFIED_PROMPT_LENGTH, type PushNotification } from "../../shared/notifications/push";
import { readLanguageSetting } from "../accounts/account-settings-repository";
import { countInWindow } from "../db/rate-limit-windows";
import type { DatabaseSchema, GenerationRow } from "../db/schema";
import { AppError } from "../errors/app-error";
import { imageUrl } from "../generations/request/generation-presenter";
import type { PushAttemptJob, PushQueue } from "../jobs/push-queue";
import type { Logger } from "../logging/logger";
import {
	findSubscriptionToPush,
	forgetPushSubscription,
	listReachableSubscriptions,
	markPushNotified,
	type PushSubscriptionRow,
} from "./push-repository";
import type { PushSettings } from "./push-settings";
import { sendPush } from "./send-push";
import type { VapidKeys } from "./vapid-keys";

type Db = Kysely<DatabaseSchema>;

/** "Send a test" presses one device may have in a minute. */
export const TEST_PUSHES_PER_MINUTE = 5;

/** The longest wait a push service's Retry-After may ask of us. */
const MAX_RETRY_AFTER_MS = 6 * 3_600_000;

export type PushDeps = {
	db: Db;
	queue: PushQueue;
	settings: PushSettings;
	vapid: { keys: VapidKeys; subject: string };
	logger: Logger;
};

/** Where the history shows a generation's result: what a notification's click opens. */
export function resultPath(generationId: string): string {
	return `/generations?generation=${encodeURIComponent(generationId)}`;
}

function startOf(prompt: string): string {
	const text = prompt.replace(/\s+/g, " ").trim();
	return text.length <= NOTIFIED_PROMPT_LENGTH
		? text
		: `${text.slice(0, NOTIFIED_PROMPT_LENGTH - 1).trimEnd()}…`;
}

/**
 * A finished generation's notification: the page's title in the owner's language, the start of its
 * prompt, its thumbnail.
 */
export function generationNotification(
	generation: GenerationRow,
	language: Language,
): PushNotification {
	const thumbnailKey = generation.images[0]?.thumbnailKey;
	return {
		title: finishNoticeTitle(generation.status === "completed" ? "done" : "failed", { language }),
		body: startOf(generation.prompt),
		tag: finishNoticeTag(generation.id),
		url: resultPath(generation.id),
		...(generation.status === "completed" && thumbnailKey ? { image: imageUrl(thumbnailKey) } : {}),
	};
}

/**
 * A generation has just completed or failed: queues one push to each of its owner's devices, in
 * the transaction that finishes it (generation-lifecycle.ts), so the end and its pushes commit
 * together or not at all. Answers how many were queued.
 */
export async function queueGenerationPush(
	transaction: Db,
	deps: Pick<PushDeps, "queue" | "settings" | "vapid">,
	generation: GenerationRow,
): Promise<number> {
	if (!deps.settings.isEnabled) return 0;
	if (generation.status !== "completed" && generation.status !== "failed") return 0;
	const subscriptions = await listReachableSubscriptions(
		transaction,
		generation.user_id,
		deps.vapid.keys.publicKey,
	);
	if (subscriptions.length === 0) return 0;
	// No browser asks for it: the account's language, else, while it follows the browser's, the
	// language of the browser that turned each device on (English for a device older than that).
	const setting = await readLanguageSetting(transaction, generation.user_id);
	for (const subscription of subscriptions) {
		const language = setting === "browser" ? (subscription.language ?? DEFAULT_LANGUAGE) : setting;
		const notification = generationNotification(generation, language);
		await deps.queue.enqueue(
			{ messageId: notification.tag, subscriptionId: subscription.id, notification, attempt: 1 },
			{ delayMs: 0, transaction },
		);
	}
	return subscriptions.length;
}

/**
 * "Send a test" for one device: at most TEST_PUSHES_PER_MINUTE a device, counted across every
 * server process (429 beyond).
 */
export async function queueTestPush(
	deps: Pick<PushDeps, "db" | "queue">,
	subscription: PushSubscriptionRow,
	language: Language,
): Promise<void> {
	const { count, resetSeconds } = await countInWindow(deps.db, `push-test:${subscription.id}`, 60);
	if (count > TEST_PUSHES_PER_MINUTE) {
		const waitSeconds = Math.max(1, resetSeconds);
		throw new AppError(
			"RATE_LIMITED",
			(options) =>
				serverPushTestLimit({ limit: TEST_PUSHES_PER_MINUTE, seconds: waitSeconds }, options),
			{ retryAfterSeconds: waitSeconds },
		);
	}
	const messageId = `test-${randomUUID()}`;
	await deps.queue.enqueue(
		{
			messageId,
			subscriptionId: subscription.id,
			notification: {
				title: "Atelier",
				body: pushTestBody({ language }),
				tag: messageId,
				url: "/account",
			},
			attempt: 1,
		},
		{ delayMs: 0 },
	);
	deps.queue.wake();
}

/**
 * Runs one attempt (the push queue's job): sends the message to the subscription, if it still
 * exists; 2xx records when the device was last notified, 404 and 410 delete the subscription,
 * 429, 5xx and no answer queue the next attempt on the back-off schedule (or after the push
 * service's Retry-After), anything else ends the message.
 */
export async function attemptPush(deps: PushDeps, job: PushAttemptJob): Promise<void> {
	const subscription = await findSubscriptionToPush(deps.db, job.subscriptionId);
	if (!subscription) return;
	const result = await sendPush(subscription, job.notification, {
		settings: deps.settings,
		vapid: deps.vapid,
		topic: topicOf(job.messageId),
	});
	const log = { subscriptionId: subscription.id, attempt: job.attempt, ...result };
	if (result.outcome === "delivered") {
		await markPushNotified(deps.db, subscription.id);
	} else if (result.outcome === "gone") {
		await forgetPushSubscription(deps.db, subscription.id);
	} else if (result.outcome === "retry") {
		const scheduled = deps.settings.retryDelaysMs[job.attempt - 1];
		if (scheduled !== undefined) {
			const delayMs = Math.min(MAX_RETRY_AFTER_MS, Math.max(scheduled, result.retryAfterMs ?? 0));
			await deps.queue.enqueue({ ...job, attempt: job.attempt + 1 }, { delayMs });
		}
	}
	deps.logger.info("push attempt", log);
}

/** A message's Topic header: at most 32 base64url characters, the same on every attempt. */
function topicOf(messageId: string): string {
	return messageId.replace(/[^A-Za-z0-9_-]/g, "").slice(-32);
}
