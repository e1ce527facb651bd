import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import type { Metrics } from "./metrics";

function digest(text: string): Buffer {
	return createHash("sha256").update(text).digest();
}

/**
 * Whether the Authorization header carries the token. Both sides are hashed first, so the
 * comparison takes the same time whatever the header holds, its length included.
 */
export function isBearerToken(header: string | undefined, token: string): boolean {
	const presented = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? "")?.[1] ?? "";
	const isEqual = timingSafeEqual(digest(presented), digest(token));
	return isEqual && presented.length > 0;
}

/**
 * GET /metrics in Prometheus's text format, for a scraper holding METRICS_TOKEN. Without a token
 * the caller mounts nothing, so the path is as unknown as any other.
 */
export function createMetricsRoute(deps: { metrics: Metrics; token: string }) {
	const app = new Hono<AppEnv>();
	app.get("/metrics", async (context) => {
		if (!isBearerToken(context.req.header("authorization"), deps.token)) {
			context.header("WWW-Authenticate", 'Bearer realm="metrics"');
			return context.text("Unauthorized\n", 401);
		}
		const text = await deps.metrics.scrape();
		context.header("content-type", deps.metrics.contentType);
		context.header("cache-control", "no-store");
		return context.body(text);
	});
	return app;
}
