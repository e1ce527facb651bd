// The service worker at /sw.js (decision 028): it shows the notifications Web Push brings and
// opens what a click asks for. It handles `push` and `notificationclick` only: no fetch handler,
// no cache. The build bundles it on its own (scripts/build-service-worker.mjs), outside the app.
import {
	chooseWindow,
	notificationOptions,
	readClickPath,
	readPushNotification,
} from "./service-worker/notification-routing";

// The parts of the ServiceWorkerGlobalScope used here: the app's TypeScript library is the DOM's,
// which cannot be combined with WebWorker's in one program.
type WindowClient = {
	url: string;
	focused: boolean;
	visibilityState: string;
	focus(): Promise<WindowClient>;
	navigate(url: string): Promise<WindowClient | null>;
};
type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type PushEvent = ExtendableEvent & { data: { json(): unknown } | null };
type NotificationEvent = ExtendableEvent & {
	notification: Notification & { data: unknown };
};
type ServiceWorkerScope = {
	location: Location;
	registration: ServiceWorkerRegistration;
	clients: {
		matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
		openWindow(url: string): Promise<WindowClient | null>;
		claim(): Promise<void>;
	};
	skipWaiting(): Promise<void>;
	addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
	addEventListener(type: "push", listener: (event: PushEvent) => void): void;
	addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
};

const scope = globalThis as unknown as ServiceWorkerScope;

// A new version takes over at once, and the open tabs with it, so a click can bring them to a result.
scope.addEventListener("install", (event) => event.waitUntil(scope.skipWaiting()));
scope.addEventListener("activate", (event) => event.waitUntil(scope.clients.claim()));

function readData(event: PushEvent): unknown {
	try {
		return event.data?.json();
	} catch {
		return undefined;
	}
}

scope.addEventListener("push", (event) => {
	const notification = readPushNotification(readData(event));
	// The page's own notification of the same generation has the same tag: this one replaces it.
	event.waitUntil(
		scope.registration.showNotification(notification.title, notificationOptions(notification)),
	);
});

async function openResult(path: string): Promise<void> {
	const url = new URL(path, scope.location.origin).href;
	const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
	const open = chooseWindow(windows, scope.location.origin);
	if (open) {
		const focused = await open.focus().catch(() => open);
		const moved = await focused.navigate(url).catch(() => null);
		if (moved) return;
	}
	await scope.clients.openWindow(url);
}

scope.addEventListener("notificationclick", (event) => {
	event.notification.close();
	event.waitUntil(openResult(readClickPath(event.notification.data)));
});
