// What the service worker (sw.ts) does with a push and a click, as plain functions it and its tests
// share: the notification a push's data asks for, and where a click goes. Read by hand, not with
// zod: the worker is a script of its own, and a few lines keep it a few kilobytes.
import type { PushNotification } from "../../shared/notifications/push";

/** What the service worker shows when a push carries nothing it can read. */
const FALLBACK: PushNotification = {
	title: "Atelier",
	body: "One of your generations has finished.",
	tag: "atelier",
	url: "/generations",
};

function isAppPath(value: unknown): value is string {
	return typeof value === "string" && value.startsWith("/") && !value.startsWith("//");
}

/** The notification a push's JSON asks for (shared/notifications/push.ts), or a plain one when it cannot be read. */
export function readPushNotification(data: unknown): PushNotification {
	if (typeof data !== "object" || data === null) return FALLBACK;
	const { title, body, tag, url, image } = data as Record<string, unknown>;
	if (typeof title !== "string" || typeof body !== "string" || typeof tag !== "string") {
		return FALLBACK;
	}
	return {
		title,
		body,
		tag,
		url: isAppPath(url) ? url : FALLBACK.url,
		...(isAppPath(image) ? { image } : {}),
	};
}

/** The options of `showNotification` for a push's notification. */
export function notificationOptions(notification: PushNotification) {
	return {
		body: notification.body,
		tag: notification.tag,
		icon: "/icons/icon-192.png",
		...(notification.image ? { image: notification.image } : {}),
		data: { url: notification.url },
	};
}

/** The app's path a clicked notification opens: its own, if it is one of ours. */
export function readClickPath(data: unknown): string {
	const url = typeof data === "object" && data !== null ? (data as { url?: unknown }).url : null;
	// Only a path of this origin: never another site, never "//host".
	return isAppPath(url) ? url : FALLBACK.url;
}

type WindowLike = { url: string; focused: boolean; visibilityState: string };

/** The open Atelier tab a click brings forward: the focused one, else a visible one, else any. */
export function chooseWindow<Window extends WindowLike>(
	windows: readonly Window[],
	origin: string,
): Window | undefined {
	const ours = windows.filter((window) => new URL(window.url).origin === origin);
	return (
		ours.find((window) => window.focused) ??
		ours.find((window) => window.visibilityState === "visible") ??
		ours[0]
	);
}
