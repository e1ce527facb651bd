// A device's short name from its User-Agent: the account page's signed-in devices and the devices
// notified by Web Push (named by the server from the request that turned them on).
import { accountDeviceBrowserOnSystem, accountDeviceUnknown } from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";

const BROWSERS: [RegExp, string][] = [
	[/Edg\//, "Edge"],
	[/OPR\/|Opera/, "Opera"],
	[/Firefox\//, "Firefox"],
	[/Chromium\//, "Chromium"],
	[/Chrome\//, "Chrome"],
	[/Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
	[/iPhone|iPad|iPod/, "iOS"],
	[/Android/, "Android"],
	[/CrOS/, "ChromeOS"],
	[/Windows/, "Windows"],
	[/Mac OS X|Macintosh/, "macOS"],
	[/Linux/, "Linux"],
];

/**
 * A short, human name for a device from its user agent, such as "Firefox on Linux", in the
 * language asked (else the page's). Browsers' and systems' names are theirs in every language.
 */
export function describeDevice(userAgent: string | null, options?: MessageOptions): string {
	const browser = userAgent
		? BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1]
		: undefined;
	const system = userAgent ? SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] : undefined;
	if (browser && system) return accountDeviceBrowserOnSystem({ browser, system }, options);
	return browser ?? system ?? accountDeviceUnknown(options);
}
