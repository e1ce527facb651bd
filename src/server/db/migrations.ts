import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import type { DatabaseSchema } from "./schema";

/** Our tables' migrations, in code so they ship inside the server bundle. Never edit a shipped one. */
const MIGRATIONS: Record<string, Migration> = {
	"0001_generations": {
		async up(db: Kysely<unknown>) {
			await db.schema
				.createTable("generations")
				.addColumn("id", "uuid", (column) => column.primaryKey())
				.addColumn("user_id", "text", (column) =>
					column.notNull().references("user.id").onDelete("cascade"),
				)
				.addColumn("prompt", "text", (column) => column.notNull())
				.addColumn("aspect_ratio", "text", (column) => column.notNull())
				.addColumn("status", "text", (column) =>
					column.notNull().check(sql`status in ('queued', 'running', 'completed', 'failed')`),
				)
				.addColumn("provider", "text", (column) => column.notNull())
				.addColumn("api_id", "text")
				.addColumn("polling_url", "text")
				.addColumn("images", "jsonb", (column) => column.notNull().defaultTo(sql`'[]'::jsonb`))
				.addColumn("error", "text")
				.addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
				// The worker that runs the generation holds a lease it renews; an expired lease means
				// that worker died and another may take the generation over.
				.addColumn("lease_owner", "text")
				.addColumn("lease_until", "timestamptz")
				.addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
				.addColumn("started_at", "timestamptz")
				.addColumn("completed_at", "timestamptz")
				.addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
				.execute();
			// The history query: one person's newest first, paged by (created_at, id).
			await sql`create index generations_user_history on generations (user_id, created_at desc, id desc)`.execute(
				db,
			);
			// The admin's history: everyone's newest first.
			await sql`create index generations_history on generations (created_at desc, id desc)`.execute(
				db,
			);
			// The quota check and the restart sweep look only at unfinished generations.
			await sql`create index generations_active on generations (user_id) where status in ('queued', 'running')`.execute(
				db,
			);
		},
	},
	"0002_generation_counts": {
		async up(db: Kysely<unknown>) {
			// The summary line's total, kept as a counter: counting thousands of rows on every page of
			// the history costs more than the page itself (PGlite has no autovacuum, so no index-only scans).
			await sql`
				create table generation_counts (
					user_id text primary key references "user"(id) on delete cascade,
					total bigint not null default 0
				)`.execute(db);
			await sql`
				create function count_generations() returns trigger language plpgsql as $$
				begin
					if tg_op = 'INSERT' then
						insert into generation_counts (user_id, total) values (new.user_id, 1)
						on conflict (user_id) do update set total = generation_counts.total + 1;
						return new;
					end if;
					update generation_counts set total = total - 1 where user_id = old.user_id;
					return old;
				end
				$$`.execute(db);
			await sql`
				create trigger generations_count
				after insert or delete on generations
				for each row execute function count_generations()`.execute(db);
			await sql`
				insert into generation_counts (user_id, total)
				select user_id, count(*) from generations group by user_id`.execute(db);
		},
	},
	"0003_generation_status_message": {
		async up(db: Kysely<unknown>) {
			// What the person is told while a generation waits, e.g. that the image service is busy.
			await sql`alter table generations add column status_message text`.execute(db);
		},
	},
	"0004_address_rate_limits": {
		async up(db: Kysely<unknown>) {
			// Password-reset and verification e-mails asked for per address, keyed by a hash of the
			// address so the table holds no e-mail addresses.
			await sql`
				create table address_rate_limits (
					key text primary key,
					count integer not null,
					window_started_at timestamptz not null
				)`.execute(db);
		},
	},
};

const provider: MigrationProvider = {
	getMigrations: async () => MIGRATIONS,
};

/** Brings our tables up to date; throws (and the server does not start) if a migration fails. */
export async function migrateToLatest(db: Kysely<DatabaseSchema>): Promise<void> {
	const migrator = new Migrator({ db, provider, migrationTableName: "app_migrations" });
	const { error, results } = await migrator.migrateToLatest();
	const failed = results?.find((result) => result.status === "Error");
	if (error || failed) {
		throw new Error(
			`Database migration ${failed?.migrationName ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`,
			{ cause: error },
		);
	}
}
