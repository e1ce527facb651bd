import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema";
import type { WebhookQueue } from "../jobs/webhook-queue";
import type { Logger } from "../logging/logger";
import { findStalledDeliveries } from "./endpoint-turns";
import { deleteSettledDeliveries } from "./webhook-repository";

/** How long delivered and failed deliveries stay in the log. */
export const SETTLED_DELIVERY_DAYS = 30;

/** A due delivery no attempt has taken for this long waits for a hand-on that will not come. */
const STALLED_AFTER_MS = 15 * 60_000;

const MAINTENANCE_INTERVAL_MS = 60 * 60_000;
/** The first round waits until the server has settled after its start. */
const FIRST_ROUND_DELAY_MS = 60_000;

type MaintenanceDeps = { db: Kysely<DatabaseSchema>; queue: WebhookQueue };

/** Deletes delivered and failed deliveries older than SETTLED_DELIVERY_DAYS; answers how many. */
export function pruneSettledDeliveries(db: Kysely<DatabaseSchema>): Promise<number> {
	return deleteSettledDeliveries(db, SETTLED_DELIVERY_DAYS);
}

/**
 * One round of the webhooks' upkeep: deletes delivered and failed deliveries older than
 * SETTLED_DELIVERY_DAYS, and queues again each endpoint's oldest delivery left waiting with no
 * attempt under way (its turn's holder ran out of retries). Safe in several processes at once.
 */
export async function maintainWebhooks(
	deps: MaintenanceDeps,
): Promise<{ pruned: number; restarted: number }> {
	const pruned = await pruneSettledDeliveries(deps.db);
	const stalled = await findStalledDeliveries(deps.db, STALLED_AFTER_MS);
	const round = `maintenance:${new Date().toISOString()}`;
	for (const next of stalled) await deps.queue.enqueue(next, { delayMs: 0, handedOnBy: round });
	if (stalled.length > 0) deps.queue.wake();
	return { pruned, restarted: stalled.length };
}

/** Runs maintainWebhooks every hour (the first a minute after the start); returns the stop. */
export function keepWebhooksMaintained(deps: MaintenanceDeps, logger: Logger): () => void {
	const round = () => {
		maintainWebhooks(deps)
			.then(({ pruned, restarted }) => {
				if (pruned > 0 || restarted > 0) logger.info("webhook upkeep", { pruned, restarted });
			})
			.catch((error) => logger.warn("webhook upkeep failed", { error }));
	};
	let interval: NodeJS.Timeout | undefined;
	const first = setTimeout(() => {
		round();
		interval = setInterval(round, MAINTENANCE_INTERVAL_MS);
		interval.unref();
	}, FIRST_ROUND_DELAY_MS);
	first.unref();
	return () => {
		clearTimeout(first);
		clearInterval(interval);
	};
}
