import { sql } from "kysely";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/database";
import type { Logger } from "../logging/logger";
import { ProviderError } from "../providers/types";

/** What happened to a call to a provider that the run will try again or give up on. */
export type ProviderErrorKind = "retryable" | "busy" | "unreachable" | "refused";

/** How a run ended, as the generation counters see it. */
export type GenerationOutcome = "completed" | "failed";

/** What the generation runs of this process report (run-generation.ts). */
export type GenerationMetrics = {
	/** A generation this process finished, and how long it took from its creation. */
	recordFinished(modelId: string, outcome: GenerationOutcome, secondsSinceCreated: number): void;
	recordProviderError(modelId: string, error: unknown): void;
};

/** What the HTTP middleware reports (http-metrics.ts). */
export type HttpMetrics = {
	/** Starts timing one request; the returned function records it once it has its answer. */
	startRequest(): (labels: { method: string; route: string; status: number }) => void;
};

export type Metrics = {
	generations: GenerationMetrics;
	http: HttpMetrics;
	/** The Prometheus text of every metric, with the database's figures read now. */
	scrape(): Promise<string>;
	readonly contentType: string;
};

/** Every metric's name starts with this, so Atelier's are found together (docs/operations.md). */
const PREFIX = "atelier_";

// Requests go from a few milliseconds to a long poll's 25 s.
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// A local render takes seconds; a hosted model's queue can take minutes, up to the timeout.
const GENERATION_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

/** The methods named as they are; anything else is `other`, so no caller can add label values. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function providerErrorKind(error: unknown): ProviderErrorKind {
	// Anything but a ProviderError is tried again by the run, like a retryable one.
	if (!(error instanceof ProviderError)) return "retryable";
	if (error.isBusy) return "busy";
	if (error.isUnreachable) return "unreachable";
	return error.retryable ? "retryable" : "refused";
}

/**
 * The queue as the database has it, so every process answers the same: one count over the
 * partial index of unfinished generations (generations_active), which stays small.
 */
async function readQueue(database: Database) {
	const result = await sql<{ queued: string; running: string; oldest_seconds: number | null }>`
		select
			count(*) filter (where status = 'queued') as queued,
			count(*) filter (where status = 'running') as running,
			extract(epoch from now() - min(created_at) filter (where status = 'queued'))::float8
				as oldest_seconds
		from generations
		where status in ('queued', 'running')`.execute(database.db);
	const row = result.rows[0];
	return {
		queued: Number(row?.queued ?? 0),
		running: Number(row?.running ?? 0),
		oldestSeconds: row?.oldest_seconds ?? 0,
	};
}

/**
 * This process's metrics in a registry of its own (several servers in one test process never
 * share counters). Counters count what this process did; the queue's gauges are read from the
 * database at each scrape. `withProcessMetrics` adds Node's own (memory, CPU, event loop), which
 * keep timers of their own, so only a server that serves /metrics turns them on.
 */
export function createMetrics(options: {
	database: Database;
	logger: Logger;
	withProcessMetrics: boolean;
}): Metrics {
	const { database, logger } = options;
	const registry = new Registry();
	const registers = [registry];
	if (options.withProcessMetrics) collectDefaultMetrics({ register: registry, prefix: PREFIX });

	const httpRequests = new Counter({
		name: `${PREFIX}http_requests_total`,
		help: "HTTP requests answered, by method, route pattern and status",
		labelNames: ["method", "route", "status"] as const,
		registers,
	});
	const httpDuration = new Histogram({
		name: `${PREFIX}http_request_duration_seconds`,
		help: "Time from a request's arrival until its answer starts, by method and route pattern",
		labelNames: ["method", "route"] as const,
		buckets: HTTP_BUCKETS,
		registers,
	});
	const httpInFlight = new Gauge({
		name: `${PREFIX}http_requests_in_flight`,
		help: "HTTP requests being answered now",
		registers,
	});
	const generationsFinished = new Counter({
		name: `${PREFIX}generations_total`,
		help: "Generations this process finished, by model and outcome (completed or failed)",
		labelNames: ["model", "outcome"] as const,
		registers,
	});
	const generationDuration = new Histogram({
		name: `${PREFIX}generation_duration_seconds`,
		help: "Time from a generation's creation until it completed or failed, by model and outcome",
		labelNames: ["model", "outcome"] as const,
		buckets: GENERATION_BUCKETS,
		registers,
	});
	const providerErrors = new Counter({
		name: `${PREFIX}provider_errors_total`,
		help: "Failed calls to image providers, by model and kind (retryable, busy, unreachable, refused)",
		labelNames: ["model", "kind"] as const,
		registers,
	});
	const queueDepth = new Gauge({
		name: `${PREFIX}generation_queue_depth`,
		help: "Generations queued and not yet started, across every process",
		registers,
	});
	const queueOldest = new Gauge({
		name: `${PREFIX}generation_queue_oldest_age_seconds`,
		help: "How long the oldest queued generation has waited (0 when none waits)",
		registers,
	});
	const running = new Gauge({
		name: `${PREFIX}generations_running`,
		help: "Generations being run now, across every process",
		registers,
	});
	const pool = database.pool;
	new Gauge({
		name: `${PREFIX}database_pool_in_use`,
		help: "Database connections of this process checked out by a query or transaction",
		registers,
		collect() {
			this.set(pool.totalCount - pool.idleCount);
		},
	});
	new Gauge({
		name: `${PREFIX}database_pool_waiting`,
		help: "Queries of this process waiting for a free database connection",
		registers,
		collect() {
			this.set(pool.waitingCount);
		},
	});
	new Gauge({
		name: `${PREFIX}database_pool_max`,
		help: "Most database connections this process opens (DATABASE_POOL_MAX; 1 when embedded)",
		registers,
		collect() {
			this.set(pool.options.max);
		},
	});

	return {
		contentType: registry.contentType,
		generations: {
			recordFinished(modelId, outcome, secondsSinceCreated) {
				generationsFinished.inc({ model: modelId, outcome });
				generationDuration.observe({ model: modelId, outcome }, secondsSinceCreated);
			},
			recordProviderError(modelId, error) {
				providerErrors.inc({ model: modelId, kind: providerErrorKind(error) });
			},
		},
		http: {
			startRequest() {
				httpInFlight.inc();
				const stopTimer = httpDuration.startTimer();
				return ({ method, route, status }) => {
					httpInFlight.dec();
					const knownMethod = KNOWN_METHODS.has(method) ? method : "other";
					stopTimer({ method: knownMethod, route });
					httpRequests.inc({ method: knownMethod, route, status: String(status) });
				};
			},
		},
		async scrape() {
			try {
				const queue = await readQueue(database);
				queueDepth.set(queue.queued);
				queueOldest.set(queue.oldestSeconds);
				running.set(queue.running);
			} catch (error) {
				// The rest is still worth having; unknown is NaN, which no alert mistakes for 0.
				logger.warn("metrics could not read the queue", { error });
				for (const gauge of [queueDepth, queueOldest, running]) gauge.set(Number.NaN);
			}
			return registry.metrics();
		},
	};
}
