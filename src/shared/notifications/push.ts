// Web Push (decision 028): what the account's push routes take and answer, and the notification a
// push carries (its title and tag: finish-notice.ts), in zod/mini like webhooks.ts.
import { z } from "zod/mini";
import {
	sharedPushEndpointMissing,
	sharedPushEndpointTooLong,
	sharedPushKeyMissing,
	sharedPushKeyShape,
	sharedPushKeysMissing,
	sharedPushLabelText,
	sharedPushLabelTooLong,
	sharedPushSubscriptionMissing,
} from "../i18n/messages";

/** How many devices one account may have notified. */
export const MAX_PUSH_SUBSCRIPTIONS = 20;

/** The longest push service endpoint accepted. */
export const MAX_PUSH_ENDPOINT_LENGTH = 2000;

/** The longest device label kept. */
export const MAX_PUSH_LABEL_LENGTH = 100;

/** How much of a prompt a notification shows. */
export const NOTIFIED_PROMPT_LENGTH = 120;

const base64url = (field: string, bytes: number) =>
	z.string({ error: () => sharedPushKeyMissing({ field }) }).check(
		z.regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}={0,2}$`), {
			error: () => sharedPushKeyShape({ field, bytes }),
		}),
	);

/** `POST /api/account/push/subscriptions`: a PushSubscription's JSON, and a name for the device. */
export const SubscribePushRequestSchema = z.object(
	{
		endpoint: z.string({ error: () => sharedPushEndpointMissing() }).check(
			z.minLength(1, { error: () => sharedPushEndpointMissing() }),
			z.maxLength(MAX_PUSH_ENDPOINT_LENGTH, {
				error: () => sharedPushEndpointTooLong({ max: String(MAX_PUSH_ENDPOINT_LENGTH) }),
			}),
		),
		keys: z.object(
			{ p256dh: base64url("p256dh", 65), auth: base64url("auth", 16) },
			{ error: () => sharedPushKeysMissing() },
		),
		label: z.optional(
			z.string({ error: () => sharedPushLabelText() }).check(
				z.trim(),
				z.maxLength(MAX_PUSH_LABEL_LENGTH, {
					error: () => sharedPushLabelTooLong({ max: MAX_PUSH_LABEL_LENGTH }),
				}),
			),
		),
	},
	{ error: () => sharedPushSubscriptionMissing() },
);
export type SubscribePushRequest = z.infer<typeof SubscribePushRequestSchema>;

/** `GET /api/account/push/key`: the VAPID public key a browser subscribes with. */
export const PushKeySchema = z.object({ publicKey: z.string() });

const PushDeviceSchema = z.object({
	id: z.string(),
	/** The browser and system ("Firefox on Linux"). */
	label: z.string(),
	/** The push service address: the page finds this device's among them. */
	endpoint: z.string(),
	createdAt: z.string(),
	lastNotifiedAt: z.nullable(z.string()),
});
export type PushDevice = z.infer<typeof PushDeviceSchema>;

/** `GET /api/account/push/subscriptions`: the person's devices, oldest first. */
export const PushDeviceListSchema = z.object({ items: z.array(PushDeviceSchema) });

/** `POST /api/account/push/subscriptions`: 201, the subscription's id. */
export const SubscribedPushSchema = z.object({ id: z.string() });

/** What one push carries: the notification the service worker shows. */
export const PushNotificationSchema = z.object({
	title: z.string(),
	body: z.string(),
	tag: z.string(),
	/** The app's page a click opens (the result, or the account page for a test). */
	url: z.string().check(z.startsWith("/")),
	/** The result's thumbnail, where the platform shows one. */
	image: z.optional(z.string().check(z.startsWith("/"))),
});
export type PushNotification = z.infer<typeof PushNotificationSchema>;
