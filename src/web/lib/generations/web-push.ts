// This device's Web Push (decision 028): the service worker's registration, the browser's
// subscription and the account's push routes. The account page's "Notifications on this device"
// and the generator's offer both turn it on and off through here. Loaded with them, never on the
// first page.
import {
	type PushDevice,
	PushDeviceListSchema,
	PushKeySchema,
	SubscribedPushSchema,
} from "../../../shared/notifications/push";
import { requestApi } from "../api/api-client";
import { ApiError, fetchApiJson } from "../api/api-fetch";

const SERVICE_WORKER_URL = "/sw.js";

/** Why this device cannot have notifications with the page closed, when it cannot. */
export type PushUnavailable = "unsupported" | "insecure" | "turned-off-on-server";

/** Whether this browser can receive pushes at all: a service worker, PushManager, notifications. */
export function readPushSupport(): "supported" | Exclude<PushUnavailable, "turned-off-on-server"> {
	if (typeof window === "undefined") return "unsupported";
	if (!window.isSecureContext) return "insecure";
	const isSupported =
		"serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
	return isSupported ? "supported" : "unsupported";
}

/** The person's devices, oldest first. */
export async function listPushDevices(): Promise<PushDevice[]> {
	return (await requestApi("/api/account/push/subscriptions", PushDeviceListSchema)).items;
}

export async function removePushDevice(id: string): Promise<void> {
	await fetchApiJson(`/api/account/push/subscriptions/${encodeURIComponent(id)}`, {
		method: "DELETE",
	});
}

/** Queues a test notification to the device. */
export async function sendTestPush(id: string): Promise<void> {
	await fetchApiJson(`/api/account/push/subscriptions/${encodeURIComponent(id)}/test`, {
		method: "POST",
	});
}

/** The server's public key; null when the operator turned Web Push off (WEB_PUSH=off). */
export async function readPushKey(): Promise<string | null> {
	try {
		return (await requestApi("/api/account/push/key", PushKeySchema)).publicKey;
	} catch (error) {
		if (error instanceof ApiError && error.status === 404) return null;
		throw error;
	}
}

/** This browser's push subscription, if it has one (without asking for anything). */
export async function readBrowserSubscription(): Promise<PushSubscription | null> {
	if (readPushSupport() !== "supported") return null;
	const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL);
	return (await registration?.pushManager.getSubscription()) ?? null;
}

/** This device among the person's: the one whose endpoint is this browser's subscription. */
export function findThisDevice(
	devices: readonly PushDevice[],
	subscription: PushSubscription | null,
): PushDevice | undefined {
	return subscription
		? devices.find((device) => device.endpoint === subscription.endpoint)
		: undefined;
}

/** What turning notifications on came to. */
export type TurnOnResult = { isOn: true } | { isOn: false; reason: PushUnavailable | "denied" };

function toBytes(base64url: string): Uint8Array<ArrayBuffer> {
	const base64 = base64url.replaceAll("-", "+").replaceAll("_", "/");
	const text = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="));
	return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

/**
 * Turns this device's notifications on: asks the browser for permission (only now), registers
 * the service worker, subscribes with the server's key (again, if an old subscription was made
 * with another) and sends the subscription to the server, which names it after this browser and
 * system.
 */
export async function turnOnPush(): Promise<TurnOnResult> {
	const support = readPushSupport();
	if (support !== "supported") return { isOn: false, reason: support };
	const publicKey = await readPushKey();
	if (publicKey === null) return { isOn: false, reason: "turned-off-on-server" };
	const permission =
		Notification.permission === "default"
			? await Notification.requestPermission()
			: Notification.permission;
	if (permission !== "granted") return { isOn: false, reason: "denied" };
	await navigator.serviceWorker.register(SERVICE_WORKER_URL);
	const registration = await navigator.serviceWorker.ready;
	const key = toBytes(publicKey);
	let subscription = await registration.pushManager.getSubscription();
	const current = subscription?.options.applicationServerKey;
	if (subscription && current && !sameBytes(new Uint8Array(current), key)) {
		await subscription.unsubscribe();
		subscription = null;
	}
	subscription ??= await registration.pushManager.subscribe({
		userVisibleOnly: true,
		applicationServerKey: key,
	});
	const { endpoint, keys } = subscription.toJSON();
	await requestApi("/api/account/push/subscriptions", SubscribedPushSchema, {
		method: "POST",
		body: JSON.stringify({ endpoint, keys }),
	});
	return { isOn: true };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
	return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/** Turns this device's notifications off: the server forgets it, and the browser unsubscribes. */
export async function turnOffPush(device: PushDevice | undefined): Promise<void> {
	if (device) await removePushDevice(device.id);
	const subscription = await readBrowserSubscription();
	await subscription?.unsubscribe();
}
