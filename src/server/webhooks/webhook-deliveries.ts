import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { serverWebhookTestLimit } from "../../shared/i18n/messages";
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from "../../shared/notifications/webhooks";
import { countInWindow } from "../db/rate-limit-windows";
import type { DatabaseSchema, GenerationRow } from "../db/schema";
import { AppError } from "../errors/app-error";
import { findPresentableGeneration } from "../generations/generation-repository";
import { presentGeneration } from "../generations/request/generation-presenter";
import type { WebhookAttemptJob, WebhookQueue } from "../jobs/webhook-queue";
import type { Logger } from "../logging/logger";
import { passEndpointTurn, takeEndpointTurn } from "./endpoint-turns";
import { sendWebhook } from "./send-webhook";
import {
	countPendingDeliveries,
	findDeliveryToAttempt,
	findSubscribedEndpoints,
	insertDroppedWebhookDelivery,
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

/** Deliveries one endpoint may have waiting; an event beyond them is recorded as not sent. */
export const MAX_PENDING_DELIVERIES = 100;

/** "Send test event" presses one endpoint may have in a minute. */
export const TEST_EVENTS_PER_MINUTE = 5;

/** Past its attempt's timeout, an endpoint's turn can be taken over (its holder died). */
const TURN_LEASE_MARGIN_MS = 30_000;

export type WebhookSettings = WebhookTargetRules & {
	/** The waits between attempts (STANDARD_RETRY_DELAYS_MS; tests shorten them). */
	retryDelaysMs: readonly number[];
	timeoutMs: number;
	/** Deliveries one endpoint may have waiting (MAX_PENDING_DELIVERIES; tests lower it). */
	maxPendingDeliveries: number;
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

/** Where an event's deliveries go: the queue, and how many may wait an endpoint. */
export type EventQueue = { queue: WebhookQueue; maxPending: number };

/**
 * Records a delivery and queues its first attempt, in the caller's transaction. An endpoint with
 * MAX_PENDING_DELIVERIES already waiting (a receiver down for hours) gets the delivery recorded as
 * failed, not sent: the waiting ones are counted under the endpoint's lock, so events finishing
 * at the same instant cannot pass the cap together.
 */
async function queueDelivery(
	transaction: Db,
	{ queue, maxPending }: EventQueue,
	delivery: { endpointId: string; type: string; body: string },
): Promise<WebhookDeliveryRow> {
	const row = { id: newDeliveryId(), endpoint_id: delivery.endpointId, type: delivery.type };
	await sql`select pg_advisory_xact_lock(hashtext(${`atelier:webhook-pending:${delivery.endpointId}`}))`.execute(
		transaction,
	);
	if ((await countPendingDeliveries(transaction, delivery.endpointId)) >= maxPending) {
		return insertDroppedWebhookDelivery(transaction, {
			...row,
			body: delivery.body,
			reason: `Not sent: ${maxPending} deliveries to this endpoint were already waiting.`,
		});
	}
	const inserted = await insertWebhookDelivery(transaction, { ...row, body: delivery.body });
	await queue.enqueue({ deliveryId: inserted.id, attempt: 1 }, { delayMs: 0, transaction });
	return inserted;
}

/**
 * A generation has just completed or failed: queues a delivery to each of its owner's endpoints
 * that subscribes to the event. Called inside the transaction that finishes the generation
 * (generation-lifecycle.ts), so the event and its deliveries commit together or not at all.
 */
export async function queueGenerationEvent(
	transaction: Db,
	events: EventQueue,
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
	// Each endpoint's lock taken in one order, so two transactions cannot deadlock over them.
	for (const endpoint of [...endpoints].sort((a, b) => a.id.localeCompare(b.id))) {
		await queueDelivery(transaction, events, { endpointId: endpoint.id, type, body });
	}
}

/**
 * Generations were deleted: to the Trash (`permanent: false`) or for good. Queues a
 * `generation.deleted` delivery to each subscribed endpoint of each owner, in the deleting
 * transaction. Its data: `{ id, permanent, deletedAt }` (a generation deleted for good can no
 * longer be shown whole).
 */
export async function queueDeletionEvents(
	transaction: Db,
	events: EventQueue,
	rows: readonly GenerationRow[],
	permanent: boolean,
): Promise<void> {
	const type: WebhookEventType = "generation.deleted";
	const deletedAt = new Date().toISOString();
	const endpointsOf = new Map<string, Array<{ id: string }>>();
	for (const row of rows) {
		let endpoints = endpointsOf.get(row.user_id);
		if (!endpoints) {
			endpoints = await findSubscribedEndpoints(transaction, row.user_id, type);
			endpointsOf.set(row.user_id, endpoints);
		}
		if (endpoints.length === 0) continue;
		const body = eventBody(type, { id: row.id, permanent, deletedAt });
		for (const endpoint of [...endpoints].sort((a, b) => a.id.localeCompare(b.id))) {
			await queueDelivery(transaction, events, { endpointId: endpoint.id, type, body });
		}
	}
}

/**
 * "Send test event": a `webhook.test` delivery to one endpoint, whatever it subscribes to; at
 * most TEST_EVENTS_PER_MINUTE an endpoint, counted across every server process (429 beyond).
 */
export async function queueTestEvent(
	deps: Pick<WebhookDeps, "db" | "queue" | "settings">,
	endpointId: string,
): Promise<WebhookDeliveryRow> {
	const { count, resetSeconds } = await countInWindow(deps.db, `webhook-test:${endpointId}`, 60);
	if (count > TEST_EVENTS_PER_MINUTE) {
		const waitSeconds = Math.max(1, resetSeconds);
		throw new AppError(
			"RATE_LIMITED",
			(options) =>
				serverWebhookTestLimit({ limit: TEST_EVENTS_PER_MINUTE, seconds: waitSeconds }, options),
			{ retryAfterSeconds: waitSeconds },
		);
	}
	const body = eventBody(WEBHOOK_TEST_EVENT, {
		endpointId,
		message: "A test event from Atelier. Your endpoint received and can verify it.",
	});
	const row = await deps.db
		.transaction()
		.execute((transaction) =>
			queueDelivery(
				transaction,
				{ queue: deps.queue, maxPending: deps.settings.maxPendingDeliveries },
				{ endpointId, type: WEBHOOK_TEST_EVENT, body },
			),
		);
	deps.queue.wake();
	return row;
}

/**
 * Hands the endpoint's turn on, in the caller's transaction: the attempts that found it taken
 * were dropped, so its next due delivery is queued again, under a job id of its own.
 */
async function passTurn(
	transaction: Db,
	queue: WebhookQueue,
	deliveryId: string,
	jobId: string,
): Promise<void> {
	const next = await passEndpointTurn(transaction, deliveryId, jobId);
	if (!next) return;
	await queue.enqueue(next, {
		delayMs: 0,
		transaction,
		handedOnBy: jobId,
	});
}

/**
 * Runs one attempt of a delivery (the webhook queue's job `jobId`): takes the endpoint's turn
 * (another attempt to the same endpoint under way: nothing to do, that one hands the turn on),
 * signs the stored body with a fresh timestamp, sends it, records the outcome and, after a failure,
 * queues the next attempt on the schedule, in the transaction that records this one and passes
 * the turn on. A delivery already delivered, failed, deleted or past this attempt is left alone.
 */
export async function attemptDelivery(
	deps: WebhookDeps,
	job: WebhookAttemptJob,
	jobId: string,
): Promise<void> {
	const leaseMs = deps.settings.timeoutMs + TURN_LEASE_MARGIN_MS;
	if (!(await takeEndpointTurn(deps.db, job.deliveryId, jobId, leaseMs))) return;
	const delivery = await findDeliveryToAttempt(deps.db, job.deliveryId);
	if (delivery?.status !== "pending" || delivery.attempts >= job.attempt) {
		await deps.db
			.transaction()
			.execute((transaction) => passTurn(transaction, deps.queue, job.deliveryId, jobId));
		deps.queue.wake();
		return;
	}
	const secret = readSecret(delivery.sealed_secret, deps.serverSecret);
	if (secret === undefined) {
		// Sealed under another server secret: no attempt can ever be signed, so none is made.
		await deps.db.transaction().execute(async (transaction) => {
			await recordWebhookAttempt(transaction, delivery.id, job.attempt, {
				status: "failed",
				statusCode: null,
				error: UNREADABLE_SECRET,
				response: null,
				nextAttemptInMs: null,
			});
			await passTurn(transaction, deps.queue, delivery.id, jobId);
		});
		deps.queue.wake();
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
		if (isRecorded && status === "pending" && nextDelayMs !== undefined) {
			await deps.queue.enqueue(
				{ deliveryId: delivery.id, attempt: job.attempt + 1 },
				{ delayMs: nextDelayMs, transaction },
			);
		}
		await passTurn(transaction, deps.queue, delivery.id, jobId);
	});
	deps.queue.wake();
	deps.logger.info("webhook attempt", {
		deliveryId: delivery.id,
		attempt: job.attempt,
		status,
		statusCode: result.statusCode,
		...(result.error ? { error: result.error } : {}),
	});
}
