// The script of a prerendered page (scripts/prerender-web.mjs bundles it on its own, outside the
// app): once the page's first content is on the screen, it fetches the app's code, which the page
// names in inert links (`<link data-app-entry>`, `<link data-app-module>`), and starts it. Fetched,
// evaluated and hydrating at once, the app competed with the rasterization of the first frame, and
// where the script arrived with the page (a fast network, the cache, loopback) the first paint
// waited for it. docs/decisions/012-prerendering-and-hydration.md.
import { APP_HYDRATED_EVENT } from "../shared/account/boot-state";

/** Longest wait for the first paint: past it, the app starts anyway. */
const FIRST_PAINT_WAIT_MS = 1000;

function hasFirstContentfulPaint(): boolean {
	return performance.getEntriesByName("first-contentful-paint").length > 0;
}

/**
 * Resolves once the browser has presented the page's first content (its `first-contentful-paint`
 * entry comes when the frame is on the screen, not merely produced by the main thread), at once for
 * a hidden page (it paints only when shown), and after a frame and a task where the browser does
 * not report paints. Never later than FIRST_PAINT_WAIT_MS.
 */
function waitForFirstPaint(): Promise<void> {
	return new Promise((resolve) => {
		if (document.visibilityState === "hidden" || hasFirstContentfulPaint()) {
			resolve();
			return;
		}
		if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) {
			requestAnimationFrame(() => setTimeout(resolve, 0));
			return;
		}
		const finish = () => {
			observer.disconnect();
			clearTimeout(timer);
			resolve();
		};
		const observer = new PerformanceObserver(() => {
			if (hasFirstContentfulPaint()) finish();
		});
		observer.observe({ type: "paint" });
		const timer = setTimeout(finish, FIRST_PAINT_WAIT_MS);
	});
}

/** Fetches the app's modules side by side (the entry's imports would otherwise wait for it). */
function preloadAppModules(): void {
	for (const link of document.querySelectorAll<HTMLLinkElement>(
		"link[data-app-entry], link[data-app-module]",
	)) {
		link.rel = "modulepreload";
	}
}

/**
 * A button clicked before the app has hydrated the page has no handler yet: the click would be
 * lost (and a form's submit button would submit the form natively). The last such click is held,
 * the app starts at once, and the button is clicked again once the app has hydrated it.
 */
function holdEarlyClicks(startNow: () => void): void {
	let held: HTMLButtonElement | undefined;
	const onClick = (event: MouseEvent) => {
		const button = event.target instanceof Element ? event.target.closest("button") : null;
		if (!button) return;
		event.preventDefault();
		event.stopPropagation();
		held = button;
		startNow();
	};
	document.addEventListener("click", onClick, true);
	document.addEventListener(
		APP_HYDRATED_EVENT,
		() => {
			document.removeEventListener("click", onClick, true);
			if (held?.isConnected) held.click();
		},
		{ once: true },
	);
}

/**
 * The page's first frame is its content on the canvas colour alone: the background pattern, two
 * gradients over the whole window, was the largest part of that frame's rasterization. It is drawn
 * in the next frame (scripts/prerender-web.mjs, styles.css; decision 045).
 */
function showBackgroundPattern(): void {
	document.body.removeAttribute("data-pattern-after-paint");
}

const appEntry = document.querySelector<HTMLLinkElement>("link[data-app-entry]");
if (appEntry) {
	const entryUrl = appEntry.href;
	let hasStarted = false;
	const startApp = () => {
		if (hasStarted) return;
		hasStarted = true;
		preloadAppModules();
		void import(/* @vite-ignore */ entryUrl);
	};
	holdEarlyClicks(startApp);
	void waitForFirstPaint().then(() => {
		showBackgroundPattern();
		startApp();
	});
}
