import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { z } from "zod/mini";
import {
	serverWebhookEndpointLimit,
	sharedWebhookRequestMissing,
} from "../../shared/i18n/messages";
import {
	CreateWebhookRequestSchema,
	MAX_WEBHOOK_ENDPOINTS,
	type WebhookDelivery,
	type WebhookEndpoint,
	type WebhookEventType,
} from "../../shared/notifications/webhooks";
import { AppError } from "../errors/app-error";
import { BROWSER_ACCESS } from "../http/api-operations";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseId, parseOrThrow } from "../http/request-input";
import { queueTestEvent, type WebhookDeps } from "./webhook-deliveries";
import {
	deleteWebhookEndpoint,
	findWebhookEndpoint,
	insertWebhookEndpointWithinLimit,
	listWebhookDeliveries,
	listWebhookEndpoints,
	type WebhookDeliveryRow,
	type WebhookEndpointRow,
} from "./webhook-repository";
import { createWebhookSecret, sealWebhookSecret } from "./webhook-secret";
import { checkWebhookTarget, WebhookTargetError } from "./webhook-target";

const EndpointIdSchema = z.uuid();

function presentEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
	return {
		id: row.id,
		url: row.url,
		events: row.events as WebhookEventType[],
		createdAt: row.created_at.toISOString(),
	};
}

function presentDelivery(row: WebhookDeliveryRow): WebhookDelivery {
	return {
		id: row.id,
		type: row.type,
		status: row.status,
		attempts: row.attempts,
		lastStatusCode: row.last_status_code,
		lastError: row.last_error,
		createdAt: row.created_at.toISOString(),
		lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
		nextAttemptAt: row.status === "pending" ? (row.next_attempt_at?.toISOString() ?? null) : null,
	};
}

/**
 * The account's webhooks: `/api/account/webhooks` and each endpoint's test event and delivery
 * log. Like the rest of account management they need a signed-in browser session.
 */
export function createWebhookRoutes(options: {
	/** The one gate (auth/request-viewer.ts): a signed-in browser, never a token. */
	gate: Gate;
	deps: WebhookDeps;
}) {
	const { gate, deps } = options;
	const app = new Hono<ViewerEnv>();

	/** The person's endpoint named in the path; someone else's answers as if it did not exist. */
	async function readOwnEndpoint(userId: string, id: string): Promise<WebhookEndpointRow> {
		const endpoint = await findWebhookEndpoint(deps.db, userId, parseId(id, EndpointIdSchema));
		if (!endpoint) throw new AppError("NOT_FOUND");
		return endpoint;
	}

	// Saving an endpoint needs a verified address where one is required, as minting a token does.
	app.post("/account/webhooks", gate.allow(BROWSER_ACCESS.accountGrant), async (context) => {
		const userId = context.get("viewer").id;
		const request = parseOrThrow(
			CreateWebhookRequestSchema,
			await context.req.json().catch(() => undefined),
			sharedWebhookRequestMissing,
		);
		try {
			await checkWebhookTarget(request.url, deps.settings);
		} catch (error) {
			if (error instanceof WebhookTargetError) throw new AppError("VALIDATION_ERROR", error.text);
			throw error;
		}
		const secret = createWebhookSecret();
		const row = await insertWebhookEndpointWithinLimit(
			deps.db,
			{
				id: randomUUID(),
				user_id: userId,
				url: request.url,
				events: [...new Set(request.events)],
				sealed_secret: sealWebhookSecret(secret, deps.serverSecret),
			},
			MAX_WEBHOOK_ENDPOINTS,
		);
		if (!row) {
			throw new AppError("VALIDATION_ERROR", (options) =>
				serverWebhookEndpointLimit({ limit: MAX_WEBHOOK_ENDPOINTS }, options),
			);
		}
		return context.json({ ...presentEndpoint(row), secret }, 201);
	});

	app.get("/account/webhooks", gate.allowSessionOnly, async (context) => {
		const userId = context.get("viewer").id;
		const rows = await listWebhookEndpoints(deps.db, userId);
		return context.json({ items: rows.map(presentEndpoint) });
	});

	app.delete("/account/webhooks/:id", gate.allowSessionOnly, async (context) => {
		const userId = context.get("viewer").id;
		const id = parseId(context.req.param("id"), EndpointIdSchema);
		if (!(await deleteWebhookEndpoint(deps.db, userId, id))) throw new AppError("NOT_FOUND");
		return context.json({ success: true });
	});

	app.post("/account/webhooks/:id/test", gate.allowSessionOnly, async (context) => {
		const endpoint = await readOwnEndpoint(context.get("viewer").id, context.req.param("id"));
		const delivery = await queueTestEvent(deps, endpoint.id);
		return context.json(presentDelivery(delivery), 202);
	});

	app.get("/account/webhooks/:id/deliveries", gate.allowSessionOnly, async (context) => {
		const endpoint = await readOwnEndpoint(context.get("viewer").id, context.req.param("id"));
		const rows = await listWebhookDeliveries(deps.db, endpoint.id);
		return context.json({ items: rows.map(presentDelivery) });
	});

	return app;
}
