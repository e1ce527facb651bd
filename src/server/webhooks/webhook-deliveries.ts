import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from "../../shared/webhooks";
import type { DatabaseSchema, GenerationRow } from "../db/schema";
import { presentGeneration } from "../generations/generation-presenter";
import { findPresentableGeneration } from "../generations/generation-repository";
import { createTransactionExecutor } from "../jobs/job-queue";
import type { WebhookAttemptJob, WebhookQueue } from "../jobs/webhook-queue";
import type { Logger } from "../logging/logger";
import { sendWebhook } from "./send-webhook";
import {
	findDeliveryToAttempt,
	findSubscribedEndpoints,
	insertWebhookDelivery,
	recordWebhookAttempt,
	type WebhookDeliveryRow,
} from "./webhook-repository";
import { openWebhookSecret } from "./webhook-secret";
import { signWebhook } from "./webhook-signature";
import type { WebhookTargetRules } from "./webhook-target";

type Db = Kysely<DatabaseSchema>;

/**
 * The Standard Webhooks specification's retry schedule: after a failed attempt, the next one
 * waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; after the eighth attempt the delivery fails.
 */
export const STANDARD_RETRY_DELAYS_MS = [
	5_000,
	5 * 60_000,
	30 * 60_000,
	2 * 3_600_000,
	5 * 3_600_000,
	10 * 3_600_000,
	10 * 3_600_000,
];

/** How long one attempt may take, answer included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export type WebhookSettings = WebhookTargetRules & {
	/** The waits between attempts (STANDARD_RETRY_DELAYS_MS; tests shorten them). */
	retryDelaysMs: readonly number[];
	timeoutMs: number;
};

export type WebhookDeps = {
	db: Db;
	queue: WebhookQueue;
	/** Seals and opens the endpoints' signing secrets (webhook-secret.ts). */
	serverSecret: string;
	settings: WebhookSettings;
	logger: Logger;
};

const UNREADABLE_SECRET =
	"The signing secret cannot be read: the server's secret has changed since the endpoint was added. Delete the endpoint and add it again.";

/** The endpoint's signing secret, or undefined when it was sealed under another server secret. */
function readSecret(sealed: string, serverSecret: string): string | undefined {
	try {
		return openWebhookSecret(sealed, serverSecret);
	} catch {
		return undefined;
	}
}

/** A new delivery's webhook-id, the same on every attempt. */
function newDeliveryId(): string {
	return `msg_${randomUUID().replaceAll("-", "")}`;
}

/** The JSON body every attempt of a delivery sends, fixed when the event happens. */
function eventBody(type: string, data: unknown): string {
	return JSON.stringify({ type, timestamp: new Date().toISOString(), data });
}

/** Records a delivery and queues its first attempt, in the caller's transaction. */
async function queueDelivery(
	transaction: Db,
	queue: WebhookQueue,
	delivery: { endpointId: string; type: string; body: string },
): Promise<WebhookDeliveryRow> {
	const row = await insertWebhookDelivery(transaction, {
		id: newDeliveryId(),
		endpoint_id: delivery.endpointId,
		type: delivery.type,
		body: delivery.body,
	});
	await queue.enqueue(
		{ deliveryId: row.id, attempt: 1 },
		{ delayMs: 0, executor: createTransactionExecutor(transaction) },
	);
	return row;
}

/**
 * A generation has just completed or failed: queues a delivery to each of its owner's endpoints
 * that subscribes to the event. Called inside the transaction that finishes the generation
 * (generation-lifecycle.ts), so the event and its deliveries commit together or not at all.
 */
export async function queueGenerationEvent(
	transaction: Db,
	queue: WebhookQueue,
	generation: GenerationRow,
): Promise<void> {
	if (generation.status !== "completed" && generation.status !== "failed") return;
	const type: WebhookEventType = `generation.${generation.status}`;
	const endpoints = await findSubscribedEndpoints(transaction, generation.user_id, type);
	if (endpoints.length === 0) return;
	// Read again with its family, in the transaction that finishes it; finished, it has no place
	// in the queue.
	const presentable = await findPresentableGeneration(transaction, generation.id, {
		isOwnerShown: false,
	});
	if (!presentable) return;
	const body = eventBody(type, presentGeneration(presentable, null));
	for (const endpoint of endpoints) {
		await queueDelivery(transaction, queue, { endpointId: endpoint.id, type, body });
	}
}

/** "Send test event": a `webhook.test` delivery to one endpoint, whatever it subscribes to. */
export async function queueTestEvent(
	deps: Pick<WebhookDeps, "db" | "queue">,
	endpointId: string,
): Promise<WebhookDeliveryRow> {
	const body = eventBody(WEBHOOK_TEST_EVENT, {
		endpointId,
		message: "A test event from Atelier. Your endpoint received and can verify it.",
	});
	const row = await deps.db
		.transaction()
		.execute((transaction) =>
			queueDelivery(transaction, deps.queue, { endpointId, type: WEBHOOK_TEST_EVENT, body }),
		);
	deps.queue.wake();
	return row;
}

/**
 * Runs one attempt of a delivery (the webhook queue's job): signs the stored body with a fresh
 * timestamp, sends it, records the outcome and, after a failure, queues the next attempt on the
 * schedule, in the transaction that records this one. A delivery already delivered, failed,
 * deleted or past this attempt is left alone.
 */
export async function attemptDelivery(deps: WebhookDeps, job: WebhookAttemptJob): Promise<void> {
	const delivery = await findDeliveryToAttempt(deps.db, job.deliveryId);
	if (delivery?.status !== "pending" || delivery.attempts >= job.attempt) return;
	const secret = readSecret(delivery.sealed_secret, deps.serverSecret);
	if (secret === undefined) {
		// Sealed under another server secret: no attempt can ever be signed, so none is made.
		await recordWebhookAttempt(deps.db, delivery.id, job.attempt, {
			status: "failed",
			statusCode: null,
			error: UNREADABLE_SECRET,
			response: null,
			nextAttemptInMs: null,
		});
		deps.logger.warn("webhook secret unreadable", { deliveryId: delivery.id });
		return;
	}
	const signed = signWebhook({
		secret,
		id: delivery.id,
		timestampSeconds: Math.floor(Date.now() / 1000),
		body: delivery.body,
	});
	const result = await sendWebhook(delivery.url, signed, deps.settings);
	const nextDelayMs = result.isDelivered ? undefined : deps.settings.retryDelaysMs[job.attempt - 1];
	const status = result.isDelivered
		? "delivered"
		: nextDelayMs === undefined
			? "failed"
			: "pending";
	await deps.db.transaction().execute(async (transaction) => {
		const isRecorded = await recordWebhookAttempt(transaction, delivery.id, job.attempt, {
			status,
			statusCode: result.statusCode,
			error: result.error,
			response: result.response,
			nextAttemptInMs: status === "pending" ? (nextDelayMs ?? null) : null,
		});
		if (!isRecorded || status !== "pending" || nextDelayMs === undefined) return;
		await deps.queue.enqueue(
			{ deliveryId: delivery.id, attempt: job.attempt + 1 },
			{ delayMs: nextDelayMs, executor: createTransactionExecutor(transaction) },
		);
	});
	deps.logger.info("webhook attempt", {
		deliveryId: delivery.id,
		attempt: job.attempt,
		status,
		statusCode: result.statusCode,
		...(result.error ? { error: result.error } : {}),
	});
}
