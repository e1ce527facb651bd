// The script of a prerendered page (scripts/prerender-web.mjs bundles it on its own, outside the
// app): it starts the app, whose entry the page names in `<link rel="modulepreload" data-app-entry>`,
// only once the page's first content is on the screen. The browser fetches the app meanwhile; only
// its evaluation and the hydration wait. Started at once, they competed with the rasterization of
// the first frame and the first paint waited for them whenever the script arrived with the page (a
// fast network, the cache, loopback): on two cores it came no sooner than the client-only app's.
// docs/decisions/012-prerendering-and-hydration.md.

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

const appEntry = document.querySelector<HTMLLinkElement>("link[data-app-entry]");
if (appEntry) {
	const entryUrl = appEntry.href;
	void waitForFirstPaint().then(() => import(/* @vite-ignore */ entryUrl));
}
