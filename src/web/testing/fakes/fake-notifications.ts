import { vi } from "vitest";

// Stand-ins for what jsdom lacks or cannot change: the browser's Notification (its permission
// prompt answered as the test says) and whether the page is hidden (another tab in front).

type Permission = "default" | "granted" | "denied";

/** Installs a Notification whose permission prompt answers `answer`; records what it shows. */
export function installFakeNotifications(options: { permission?: Permission; answer: Permission }) {
	const shown: FakeNotification[] = [];
	let permissionRequests = 0;

	class FakeNotification {
		static permission: Permission = options.permission ?? "default";
		static async requestPermission(): Promise<Permission> {
			permissionRequests += 1;
			FakeNotification.permission = options.answer;
			return options.answer;
		}
		onclick: (() => void) | null = null;
		isClosed = false;
		constructor(
			readonly title: string,
			readonly options: NotificationOptions = {},
		) {
			shown.push(this);
		}
		close() {
			this.isClosed = true;
		}
	}

	vi.stubGlobal("Notification", FakeNotification);
	return {
		shown,
		readPermissionRequests: () => permissionRequests,
	};
}

let visibility: DocumentVisibilityState = "visible";

/** Makes the page hidden or visible as the browser does, with its visibilitychange event. */
export function setPageVisibility(next: DocumentVisibilityState): void {
	visibility = next;
	Object.defineProperty(document, "visibilityState", {
		configurable: true,
		get: () => visibility,
	});
	Object.defineProperty(document, "hidden", {
		configurable: true,
		get: () => visibility === "hidden",
	});
	document.dispatchEvent(new Event("visibilitychange"));
}
