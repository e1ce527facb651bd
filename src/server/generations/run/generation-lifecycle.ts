import { type ExpressionBuilder, type Kysely, sql, type Transaction } from "kysely";
import {
	ACTIVE_GENERATION_STATUSES,
	type ProgressStage,
} from "../../../shared/generations/generation-responses";
import type { DatabaseSchema, GenerationRow, StoredImage } from "../../db/schema";
import {
	notifyGenerationChanged,
	notifyGenerationsChanged,
	QUEUE_MOVED_KEY,
} from "../generation-events";
import { QUEUE_ORDER } from "./queue-order";
import { sumStoredBytes } from "./store-images";

/**
 * The worker's state transitions of a generation. Every write a run makes to `generations` is one
 * of these, each announced to every server process (and so to every waiting poll).
 *
 * A run holds the generation through a lease: a token of its own, written in `lease_owner`, that
 * lasts `leaseMs` unless renewed. Every write of the run is conditional on still holding that token,
 * so a run whose lease ran out (its process stalled or died) and was taken over changes nothing.
 */
export type Lease = { generationId: string; token: string };

type Db = Kysely<DatabaseSchema>;

function isHeldBy(lease: Lease) {
	return (eb: ExpressionBuilder<DatabaseSchema, "generations">) =>
		eb.and([
			eb("id", "=", lease.generationId),
			eb("lease_owner", "=", lease.token),
			eb("status", "=", "running"),
		]);
}

function leaseEnd(leaseMs: number) {
	return sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`;
}

/**
 * Takes the next generation for one run, in the fair queue's order (queue-order.ts, decision 020):
 * first a generation whose run died (its lease ran out; it had its turn and its provider job may be
 * going on), then the queued generation whose turn it is. Whichever job woke the worker, it takes
 * that one: every job stands for one turn of a worker, not for its own generation. Returns the
 * row as claimed, with the run's lease, or undefined when nothing waits.
 */
export async function claimGeneration(
	db: Db,
	token: string,
	leaseMs: number,
): Promise<GenerationRow | undefined> {
	const row = await db.transaction().execute(async (transaction) => {
		// One claim at a time across every process, each after the one before it committed: the
		// turn a claim gives moves its person to the end of the round, and the next claim sees it.
		// A claim is one short transaction; runs go on in parallel.
		await sql`select pg_advisory_xact_lock(hashtext('atelier:generation-claim'))`.execute(
			transaction,
		);
		// Skip locked: a row being deleted or cancelled right now is not waited for.
		const next = await sql<{ id: string }>`
			with ${QUEUE_ORDER}
			select generations.id
			from generations
			left join queue_order on queue_order.id = generations.id
			where generations.status in ('queued', 'running')
				and (generations.lease_until is null or generations.lease_until < now())
			order by queue_order.queue_position asc nulls first, generations.started_at, generations.id
			limit 1
			for update of generations skip locked`.execute(transaction);
		const id = next.rows[0]?.id;
		if (!id) return undefined;
		return transaction
			.updateTable("generations")
			.set({
				lease_owner: token,
				lease_until: leaseEnd(leaseMs),
				status: "running",
				// The clock, not the transaction's start: claims wait for each other, and each turn
				// must be later than the one before it.
				started_at: sql`coalesce(started_at, clock_timestamp())`,
				attempts: sql`attempts + 1`,
				updated_at: sql`now()`,
			})
			.where("id", "=", id)
			.returningAll()
			.executeTakeFirst();
	});
	// The queue moved: every queued generation's position may be one less.
	if (row) await notifyGenerationsChanged(db, [row.id, QUEUE_MOVED_KEY]);
	return row;
}

/** Extends the lease; false when the run no longer holds the generation. */
export async function renewLease(db: Db, lease: Lease, leaseMs: number): Promise<boolean> {
	const row = await db
		.updateTable("generations")
		.set({ lease_until: leaseEnd(leaseMs) })
		.where(isHeldBy(lease))
		.returning("id")
		.executeTakeFirst();
	return row !== undefined;
}

/** Records the provider's job id, so a run that takes over resumes that job instead of paying twice. */
export async function saveProviderJob(db: Db, lease: Lease, jobId: string): Promise<boolean> {
	const row = await db
		.updateTable("generations")
		.set({ api_id: jobId, updated_at: sql`now()` })
		.where(isHeldBy(lease))
		.returning("id")
		.executeTakeFirst();
	if (row) await notifyGenerationChanged(db, lease.generationId);
	return row !== undefined;
}

/** What the poll says while the generation waits (null clears it). */
export async function setStatusMessage(
	db: Db,
	lease: Lease,
	message: string | null,
): Promise<boolean> {
	const row = await db
		.updateTable("generations")
		.set({ status_message: message })
		.where(isHeldBy(lease))
		.returning("id")
		.executeTakeFirst();
	if (row) await notifyGenerationChanged(db, lease.generationId);
	return row !== undefined;
}

/** What a run last heard of its generation's progress (provider-reported fields null when unknown). */
export type ProgressReport = {
	stage: ProgressStage;
	percent: number | null;
	step: number | null;
	steps: number | null;
	/** The provider's own queue position, while `stage` is `queued`. */
	position: number | null;
	previewKey: string | null;
};

/**
 * Records the run's progress and announces it, so waiting polls answer at once. The percent never
 * goes down (a run that takes over keeps what the earlier one reported); callers throttle
 * (progress-reporter.ts). False when the run no longer holds the generation.
 */
export async function reportProgress(
	db: Db,
	lease: Lease,
	report: ProgressReport,
): Promise<boolean> {
	const percent = report.percent === null ? null : Math.min(100, Math.max(0, report.percent));
	const row = await db
		.updateTable("generations")
		.set({
			progress_stage: report.stage,
			progress_percent:
				percent === null
					? sql<number | null>`progress_percent`
					: sql<number>`greatest(coalesce(progress_percent, 0), ${percent}::real)`,
			progress_step: report.step,
			progress_steps: report.steps,
			progress_position: report.position,
			preview_key: report.previewKey,
		})
		.where(isHeldBy(lease))
		.returning("id")
		.executeTakeFirst();
	if (row) await notifyGenerationChanged(db, lease.generationId);
	return row !== undefined;
}

/** What a finished generation keeps of its progress: nothing. */
const NO_PROGRESS = {
	progress_stage: null,
	progress_percent: null,
	progress_step: null,
	progress_steps: null,
	progress_position: null,
	preview_key: null,
} as const;

/** A generation a run has just finished: what the metrics count it under. */
export type FinishedGeneration = {
	modelId: string;
	/** From its creation until now, by the database's clock (the one that stamped both). */
	secondsSinceCreated: number;
};

/**
 * What else commits with a generation's end, in the same transaction: the webhook deliveries of
 * its `generation.completed` or `generation.failed` event, so a crash loses neither.
 */
export type OnGenerationFinished = (transaction: Db, generation: GenerationRow) => Promise<void>;

async function finishGeneration(
	db: Db,
	lease: Lease,
	outcome: { status: "completed"; images: StoredImage[] } | { status: "failed"; error: string },
	onFinished: OnGenerationFinished | undefined,
): Promise<FinishedGeneration | undefined> {
	return db.transaction().execute(async (transaction) => {
		const row = await transaction
			.updateTable("generations")
			.set({
				status: outcome.status,
				images: JSON.stringify(outcome.status === "completed" ? outcome.images : []),
				stored_bytes:
					outcome.status === "completed" ? (sumStoredBytes(outcome.images) ?? null) : null,
				error: outcome.status === "failed" ? outcome.error : null,
				completed_at: sql`now()`,
				updated_at: sql`now()`,
				lease_owner: null,
				lease_until: null,
				status_message: null,
				...NO_PROGRESS,
			})
			.where(isHeldBy(lease))
			.returningAll()
			.returning(
				sql<number>`extract(epoch from now() - created_at)::float8`.as("seconds_since_created"),
			)
			.executeTakeFirst();
		if (!row) return undefined;
		const { seconds_since_created: secondsSinceCreated, ...generation } = row;
		await onFinished?.(transaction, generation);
		// Sent at commit, like the rest of the transaction.
		await notifyGenerationChanged(transaction, lease.generationId);
		return { modelId: row.model_id, secondsSinceCreated };
	});
}

/** Marks the generation done with its stored images; undefined when the run no longer holds it. */
export function completeGeneration(
	db: Db,
	lease: Lease,
	images: StoredImage[],
	onFinished?: OnGenerationFinished,
): Promise<FinishedGeneration | undefined> {
	return finishGeneration(db, lease, { status: "completed", images }, onFinished);
}

/** Marks the generation failed with the message people see; undefined when the run no longer holds it. */
export function failGeneration(
	db: Db,
	lease: Lease,
	error: string,
	onFinished?: OnGenerationFinished,
): Promise<FinishedGeneration | undefined> {
	return finishGeneration(db, lease, { status: "failed", error }, onFinished);
}

/** What a generation stopped from outside its run becomes: failed with `message`, leased to no one. */
function cancelledColumns(message: string) {
	return {
		status: "failed" as const,
		images: JSON.stringify([]),
		error: message,
		completed_at: sql<Date>`now()`,
		updated_at: sql<Date>`now()`,
		lease_owner: null,
		lease_until: null,
		status_message: null,
		...NO_PROGRESS,
	};
}

/**
 * Ends every unfinished generation of one person, queued or running, as failed with `message`: the
 * one transition not made by a run (the administrator disabling the person). A run still working
 * on one loses its lease with it: its next write changes nothing, and it removes what it stored
 * and stops; a queued one's job finds nothing to claim. Returns the rows, so the caller can cancel
 * the provider's jobs after the commit.
 */
export async function cancelUnfinishedGenerations(
	db: Db | Transaction<DatabaseSchema>,
	userId: string,
	message: string,
): Promise<GenerationRow[]> {
	const rows = await db
		.updateTable("generations")
		.set(cancelledColumns(message))
		.where("user_id", "=", userId)
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.returningAll()
		.execute();
	await notifyGenerationsChanged(db, [...rows.map((row) => row.id), QUEUE_MOVED_KEY]);
	return rows;
}

/**
 * Fails these generations where they are still queued or running, as cancelUnfinishedGenerations
 * does a disabled person's: moved to the Trash, one may not complete there half done. Returns the
 * rows it failed (the caller cancels their providers' jobs after the commit).
 */
export async function cancelGenerations(
	db: Db | Transaction<DatabaseSchema>,
	ids: readonly string[],
	message: string,
): Promise<GenerationRow[]> {
	if (ids.length === 0) return [];
	return db
		.updateTable("generations")
		.set(cancelledColumns(message))
		.where("id", "in", ids)
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.returningAll()
		.execute();
}

/** Frees every lease: used at start by a sole server process, whose earlier self held them all. */
export async function releaseAllLeases(db: Db): Promise<void> {
	await db
		.updateTable("generations")
		.set({ lease_owner: null, lease_until: null })
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.execute();
}

/**
 * Unfinished generations nobody is running: their lease ran out (the run's process died), or they
 * have waited in the queue for longer than `queuedForMs` without a run.
 */
async function findOrphanedGenerations(
	db: Db,
	options: { queuedForMs: number; limit: number },
): Promise<string[]> {
	const rows = await db
		.selectFrom("generations")
		.select("id")
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.where((eb) =>
			eb.or([
				eb("lease_until", "<", sql<Date>`now()`),
				eb.and([
					eb("lease_until", "is", null),
					eb(
						"created_at",
						"<",
						sql<Date>`now() - make_interval(secs => ${options.queuedForMs / 1000})`,
					),
				]),
			]),
		)
		.limit(options.limit)
		.execute();
	return rows.map((row) => row.id);
}

/** A generation waiting longer than this without a run is handed to the queue again. */
const QUEUED_TOO_LONG_MS = 30_000;

/** How the job queue recovers generations whose run died: the transitions it needs, in one place. */
export const GENERATION_RECOVERY = {
	findOrphaned: (db: Db) =>
		findOrphanedGenerations(db, { queuedForMs: QUEUED_TOO_LONG_MS, limit: 100 }),
	findUnfinished: (db: Db) => findUnfinishedGenerations(db),
	releaseAllLeases: (db: Db) => releaseAllLeases(db),
	countClaimable: (db: Db) => countClaimableGenerations(db),
};

/** Generations a worker could claim now: queued, or running under a lease that ran out. */
async function countClaimableGenerations(db: Db): Promise<number> {
	const row = await db
		.selectFrom("generations")
		.select((eb) => eb.fn.countAll<string>().as("count"))
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", sql<Date>`now()`)]))
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

/** Every generation not yet completed or failed. */
async function findUnfinishedGenerations(db: Db): Promise<string[]> {
	const rows = await db
		.selectFrom("generations")
		.select("id")
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.execute();
	return rows.map((row) => row.id);
}
