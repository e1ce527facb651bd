import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { AppEnv } from "../http/app-env";
import type { HttpMetrics } from "./metrics";

/**
 * Counts and times every request under the route pattern that answered it (`/api/generations/:id`,
 * never the path with its id), so the labels stay few whatever people ask for. Unknown paths
 * answer from a catch-all pattern (`/api/*`, `*`).
 */
export function measureRequests(metrics: HttpMetrics) {
	return createMiddleware<AppEnv>(async (context, next) => {
		const record = metrics.startRequest();
		try {
			await next();
		} finally {
			// After next(), the route index points at the handler (or middleware) that answered.
			record({
				method: context.req.method,
				route: routePath(context),
				status: context.res.status,
			});
		}
	});
}
