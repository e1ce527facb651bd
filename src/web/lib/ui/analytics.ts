/**
 * Product analytics (SPEC.md section 1: the helpers exist but do nothing). Screens call
 * `trackEvent` at the moments worth counting; nothing is collected or sent anywhere until a
 * deployment installs a sink with `configureAnalytics`, so a self-hosted Atelier phones nobody.
 */

type AnalyticsEventName =
	| "generation_started"
	| "generation_completed"
	| "generation_failed"
	| "generation_cancelled"
	| "generation_resumed"
	| "image_preview_opened";

type AnalyticsProperties = Readonly<Record<string, string | number | boolean>>;

type AnalyticsSink = {
	track(name: AnalyticsEventName, properties: AnalyticsProperties): void;
};

let installedSink: AnalyticsSink | undefined;

/** Installs where events go, or removes it with `undefined`; until then every call is a no-op. */
export function configureAnalytics(sink: AnalyticsSink | undefined): void {
	installedSink = sink;
}

export function isAnalyticsConfigured(): boolean {
	return installedSink !== undefined;
}

/** Records an event when a sink is installed. A failing sink never breaks the screen calling it. */
export function trackEvent(name: AnalyticsEventName, properties: AnalyticsProperties = {}): void {
	if (!installedSink) return;
	try {
		installedSink.track(name, properties);
	} catch (error) {
		console.warn("Analytics sink failed", error);
	}
}
