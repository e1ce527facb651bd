import { type Kysely, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema";

type Db = Kysely<DatabaseSchema>;

// Every query reads generations made since `start`, which the index on created_at
// (generations_history) finds; days are calendar days in `timeZone`, by the database's clock.
// Sums are cast to float8, which the driver answers as numbers (bigint and numeric come as text).

/** Today in `timeZone`, and the instant its window of `days` days starts (midnight, days - 1 ago). */
export async function selectUsageWindow(
	db: Db,
	timeZone: string,
	days: number,
): Promise<{ today: string; start: Date }> {
	const result = await sql<{ today: string; start: Date }>`
		select
			to_char(now() at time zone ${timeZone}, 'YYYY-MM-DD') as today,
			(date_trunc('day', now() at time zone ${timeZone}) - make_interval(days => ${days - 1}))
				at time zone ${timeZone} as start`.execute(db);
	const row = result.rows[0];
	if (!row) throw new Error("The database answered no time");
	return { today: row.today, start: new Date(row.start) };
}

/** One day and model: generations by outcome, the images they stored, their bytes and cost. */
export type DayModelUsage = {
	day: string;
	model_id: string;
	/** The label of the model's latest generation of the day. */
	model_label: string;
	completed: number;
	failed: number;
	total: number;
	images: number;
	bytes: number;
	images_without_bytes: number;
	spend: number;
	unpriced_images: number;
};

export async function selectUsageByDayAndModel(
	db: Db,
	window: { start: Date; timeZone: string },
): Promise<DayModelUsage[]> {
	const result = await sql<DayModelUsage>`
		select
			to_char(created_at at time zone ${window.timeZone}, 'YYYY-MM-DD') as day,
			model_id,
			(array_agg(model_label order by created_at desc))[1] as model_label,
			(count(*) filter (where status = 'completed'))::float8 as completed,
			(count(*) filter (where status = 'failed'))::float8 as failed,
			count(*)::float8 as total,
			coalesce(sum(jsonb_array_length(images)) filter (where status = 'completed' and deleted_at is null), 0)::float8 as images,
			coalesce(sum(stored_bytes) filter (where status = 'completed' and deleted_at is null), 0)::float8 as bytes,
			coalesce(sum(jsonb_array_length(images)) filter (where status = 'completed' and deleted_at is null and stored_bytes is null), 0)::float8 as images_without_bytes,
			coalesce(sum(jsonb_array_length(images) * price_per_image) filter (where status = 'completed'), 0)::float8 as spend,
			coalesce(sum(jsonb_array_length(images)) filter (where status = 'completed' and coalesce(price_per_image, 0) = 0), 0)::float8 as unpriced_images
		from generations
		where created_at >= ${window.start}
		group by 1, 2`.execute(db);
	return result.rows;
}

/** Failed generations per day and stored message (the messages are few; each is classified apart). */
export async function selectFailureMessages(
	db: Db,
	window: { start: Date; timeZone: string },
): Promise<{ day: string; error: string | null; count: number }[]> {
	const result = await sql<{ day: string; error: string | null; count: number }>`
		select
			to_char(created_at at time zone ${window.timeZone}, 'YYYY-MM-DD') as day,
			error,
			count(*)::float8 as count
		from generations
		where created_at >= ${window.start} and status = 'failed'
		group by 1, 2`.execute(db);
	return result.rows;
}

/** The median time from creation to completion of each model's generations completed in the window. */
export async function selectCompletionTimes(
	db: Db,
	window: { start: Date },
): Promise<{ model_id: string; completed: number; median_seconds: number }[]> {
	const result = await sql<{ model_id: string; completed: number; median_seconds: number }>`
		select
			model_id,
			count(*)::float8 as completed,
			percentile_cont(0.5) within group (
				order by extract(epoch from completed_at - created_at)::float8
			) as median_seconds
		from generations
		where created_at >= ${window.start} and status = 'completed' and completed_at is not null
		group by model_id`.execute(db);
	return result.rows;
}

type StoredTotals = {
	images: number;
	bytes: number;
	images_without_bytes: number;
	trash_images: number;
	trash_bytes: number;
};

/**
 * Everything stored now, whenever it was made, the Trash apart (decision 031). Reads every
 * completed generation: no index narrows "all of them", and the report is opened by one person
 * now and then.
 */
export async function selectStoredTotals(db: Db): Promise<StoredTotals> {
	const result = await sql<StoredTotals>`
		select
			coalesce(sum(jsonb_array_length(images)) filter (where deleted_at is null), 0)::float8 as images,
			coalesce(sum(stored_bytes) filter (where deleted_at is null), 0)::float8 as bytes,
			coalesce(sum(jsonb_array_length(images)) filter (where deleted_at is null and stored_bytes is null), 0)::float8 as images_without_bytes,
			coalesce(sum(jsonb_array_length(images)) filter (where deleted_at is not null), 0)::float8 as trash_images,
			coalesce(sum(stored_bytes) filter (where deleted_at is not null), 0)::float8 as trash_bytes
		from generations
		where status = 'completed'`.execute(db);
	return (
		result.rows[0] ?? {
			images: 0,
			bytes: 0,
			images_without_bytes: 0,
			trash_images: 0,
			trash_bytes: 0,
		}
	);
}

/** The people whose completed images cost most in the window, most first (ties by e-mail). */
export async function selectTopSpenders(
	db: Db,
	window: { start: Date },
	limit: number,
): Promise<{ email: string; images: number; amount: number }[]> {
	const result = await sql<{ email: string; images: number; amount: number }>`
		select
			u.email,
			sum(jsonb_array_length(g.images))::float8 as images,
			sum(jsonb_array_length(g.images) * g.price_per_image)::float8 as amount
		from generations g
		join "user" u on u.id = g.user_id
		where g.created_at >= ${window.start} and g.status = 'completed' and g.price_per_image > 0
		group by u.id, u.email
		having sum(jsonb_array_length(g.images) * g.price_per_image) > 0
		order by amount desc, u.email
		limit ${limit}`.execute(db);
	return result.rows;
}

/**
 * Enhance's calls in the window, per person, most first (ties by e-mail): the rewrites each asked
 * of the operator's chat endpoint (prompts/enhancements-repository.ts), each a call it paid for.
 */
export async function selectEnhancementsByPerson(
	db: Db,
	window: { start: Date },
	limit: number,
): Promise<{ email: string; calls: number }[]> {
	const result = await sql<{ email: string; calls: number }>`
		select u.email, count(*)::float8 as calls
		from prompt_enhancements e
		join "user" u on u.id = e.user_id
		where e.created_at >= ${window.start}
		group by u.id, u.email
		order by calls desc, u.email
		limit ${limit}`.execute(db);
	return result.rows;
}

/** Enhance's calls in the window, everyone's. */
export async function countEnhancements(db: Db, window: { start: Date }): Promise<number> {
	const result = await sql<{ calls: number }>`
		select count(*)::float8 as calls from prompt_enhancements where created_at >= ${window.start}`.execute(
		db,
	);
	return result.rows[0]?.calls ?? 0;
}
