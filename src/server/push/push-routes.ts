import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { z } from "zod/mini";
import { describeDevice } from "../../shared/account/device-name";
import { serverPushDeviceLimit, sharedPushSubscriptionMissing } from "../../shared/i18n/messages";
import {
	MAX_PUSH_SUBSCRIPTIONS,
	type PushDevice,
	SubscribePushRequestSchema,
} from "../../shared/notifications/push";
import type { Auth } from "../auth/auth";
import { AppError } from "../errors/app-error";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseOrThrow } from "../http/request-input";
import { readRequestLanguage } from "../i18n/request-language";
import { type PushDeps, queueTestPush } from "./push-deliveries";
import { checkPushEndpoint, PushEndpointError } from "./push-endpoint";
import {
	deletePushSubscription,
	findPushSubscription,
	listPushSubscriptions,
	type PushSubscriptionRow,
	replacePushSubscription,
} from "./push-repository";

const SubscriptionIdSchema = z.uuid();

const TURNED_OFF =
	"Notifications with the page closed are turned off on this server (WEB_PUSH=off).";

function presentDevice(row: PushSubscriptionRow): PushDevice {
	return {
		id: row.id,
		label: row.label,
		endpoint: row.endpoint,
		createdAt: row.created_at.toISOString(),
		lastNotifiedAt: row.last_notified_at?.toISOString() ?? null,
	};
}

/**
 * The account's Web Push: `/api/account/push/...`, the server's public key and the person's
 * devices. Like the rest of account management they need a signed-in browser session (the gate's
 * allowSessionOnly, BROWSER_ACCESS.account); a subscription belongs to the session that made it.
 */
export function createPushRoutes(options: { gate: Gate; auth: Auth; deps: PushDeps }) {
	const { gate, auth, deps } = options;
	const app = new Hono<ViewerEnv>();

	app.use("/account/push/*", gate.allowSessionOnly, async (_context, next) => {
		if (!deps.settings.isEnabled) throw new AppError("NOT_FOUND", TURNED_OFF);
		return next();
	});

	/** The person's subscription named in the path; someone else's answers as if it did not exist. */
	async function readOwnSubscription(userId: string, id: string): Promise<PushSubscriptionRow> {
		if (!SubscriptionIdSchema.safeParse(id).success) throw new AppError("NOT_FOUND");
		const subscription = await findPushSubscription(deps.db, userId, id);
		if (!subscription) throw new AppError("NOT_FOUND");
		return subscription;
	}

	app.get("/account/push/key", (context) => context.json({ publicKey: deps.vapid.keys.publicKey }));

	app.post("/account/push/subscriptions", async (context) => {
		const userId = context.get("viewer").id;
		const request = parseOrThrow(
			SubscribePushRequestSchema,
			await context.req.json().catch(() => undefined),
			sharedPushSubscriptionMissing,
		);
		try {
			await checkPushEndpoint(request.endpoint, deps.settings);
		} catch (error) {
			if (error instanceof PushEndpointError) throw new AppError("VALIDATION_ERROR", error.text);
			throw error;
		}
		// The gate let a session in; the subscription ends with it (signing out on that device).
		const session = await auth.api.getSession({ headers: context.req.raw.headers });
		if (!session) throw new AppError("AUTH_ERROR");
		const language = readRequestLanguage(context.req.raw.headers);
		const row = await replacePushSubscription(
			deps.db,
			{
				id: randomUUID(),
				user_id: userId,
				session_id: session.session.id,
				endpoint: request.endpoint,
				p256dh: request.keys.p256dh,
				auth: request.keys.auth,
				// Named in the language of the browser that turns it on, as its account page reads it;
				// its pushes are written in that language while the account follows the browser's.
				label:
					request.label || describeDevice(context.req.header("user-agent") ?? null, { language }),
				vapid_public_key: deps.vapid.keys.publicKey,
				language,
			},
			MAX_PUSH_SUBSCRIPTIONS,
		);
		if (!row) {
			throw new AppError("VALIDATION_ERROR", (options) =>
				serverPushDeviceLimit({ limit: MAX_PUSH_SUBSCRIPTIONS }, options),
			);
		}
		return context.json({ id: row.id }, 201);
	});

	app.get("/account/push/subscriptions", async (context) => {
		const rows = await listPushSubscriptions(deps.db, context.get("viewer").id);
		return context.json({ items: rows.map(presentDevice) });
	});

	app.delete("/account/push/subscriptions/:id", async (context) => {
		const userId = context.get("viewer").id;
		const id = context.req.param("id");
		if (!SubscriptionIdSchema.safeParse(id).success) throw new AppError("NOT_FOUND");
		if (!(await deletePushSubscription(deps.db, userId, id))) throw new AppError("NOT_FOUND");
		return context.json({ success: true });
	});

	app.post("/account/push/subscriptions/:id/test", async (context) => {
		const subscription = await readOwnSubscription(
			context.get("viewer").id,
			context.req.param("id"),
		);
		await queueTestPush(deps, subscription, readRequestLanguage(context.req.raw.headers));
		return context.json({ success: true }, 202);
	});

	return app;
}
