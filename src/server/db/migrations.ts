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
	"0005_history_search": {
		async up(db: Kysely<unknown>) {
			// Word-part search: trigram indexes serve `like '%light%'`. pg_trgm is a trusted extension
			// (PostgreSQL 13+): the database's owner may create it; PGlite loads it as a plugin.
			await sql`create extension if not exists pg_trgm`.execute(db);
			await sql`alter table generations add column is_favorite boolean not null default false`.execute(
				db,
			);
			// What search and filters read, one narrow row per generation (about a tenth of a
			// generation's row, which carries its images): counting the matches of a broad search
			// reads every matching row, and narrow rows make that several times cheaper. The prompt is
			// kept lowercased, so matching needs no ilike, which lowercases every row on every search.
			// Kept by the triggers below; a generation's row leaves it when the generation is deleted.
			await sql`
				create table generation_search (
					id uuid primary key references generations(id) on delete cascade,
					user_id text not null,
					created_at timestamptz not null,
					aspect_ratio text not null,
					is_favorite boolean not null,
					prompt_search text not null
				)`.execute(db);
			// fastupdate off: new rows go straight into the index instead of a pending list that every
			// search reads through and only VACUUM empties (PGlite has no autovacuum).
			await sql`create index generation_search_prompt on generation_search using gin (prompt_search gin_trgm_ops) with (fastupdate = off)`.execute(
				db,
			);
			await sql`create index generation_search_user_history on generation_search (user_id, created_at desc, id desc)`.execute(
				db,
			);
			await sql`create index generation_search_history on generation_search (created_at desc, id desc)`.execute(
				db,
			);
			await sql`create index generation_search_user_ratio on generation_search (user_id, aspect_ratio, created_at desc, id desc)`.execute(
				db,
			);
			await sql`create index generation_search_ratio on generation_search (aspect_ratio, created_at desc, id desc)`.execute(
				db,
			);
			await sql`create index generation_search_user_favorites on generation_search (user_id, created_at desc, id desc) where is_favorite`.execute(
				db,
			);
			await sql`
				create function mirror_generation_search() returns trigger language plpgsql as $$
				begin
					if tg_op = 'INSERT' then
						insert into generation_search (id, user_id, created_at, aspect_ratio, is_favorite, prompt_search)
						values (new.id, new.user_id, new.created_at, new.aspect_ratio, new.is_favorite, lower(new.prompt));
					else
						update generation_search
						set aspect_ratio = new.aspect_ratio, is_favorite = new.is_favorite, prompt_search = lower(new.prompt)
						where id = new.id;
					end if;
					return new;
				end
				$$`.execute(db);
			await sql`
				create trigger generations_search_insert
				after insert on generations
				for each row execute function mirror_generation_search()`.execute(db);
			// Only these columns: the run's frequent writes (lease, status) do not touch the copy.
			await sql`
				create trigger generations_search_update
				after update of aspect_ratio, is_favorite, prompt on generations
				for each row execute function mirror_generation_search()`.execute(db);
			await sql`
				insert into generation_search (id, user_id, created_at, aspect_ratio, is_favorite, prompt_search)
				select id, user_id, created_at, aspect_ratio, is_favorite, lower(prompt) from generations`.execute(
				db,
			);
		},
	},
	"0006_generation_audit_log": {
		async up(db: Kysely<unknown>) {
			// The administrator's deletions of other people's generations. Copies, not references, of
			// the generation (it is gone) and of the administrator; the entries go with the owner's
			// account, which leaves nothing behind when it is deleted.
			await sql`
				create table generation_audit_log (
					id uuid primary key,
					action text not null check (action in ('delete')),
					actor_id text not null,
					actor_email text not null,
					owner_id text not null references "user"(id) on delete cascade,
					owner_email text not null,
					generation_id uuid not null,
					prompt text not null,
					created_at timestamptz not null default now()
				)`.execute(db);
			await sql`create index generation_audit_log_recent on generation_audit_log (created_at desc, id desc)`.execute(
				db,
			);
			await sql`create index generation_audit_log_owner on generation_audit_log (owner_id)`.execute(
				db,
			);
		},
	},
	"0007_generation_models": {
		async up(db: Kysely<unknown>) {
			// The model and settings each generation is made with. Generations made before there was a
			// choice of model get the one they ran on: its id is the provider's name, as the catalogue
			// without MODELS_FILE names it, and its label that catalogue's label for the provider.
			await sql`
				alter table generations
					add column model_id text,
					add column model_label text,
					add column image_count integer not null default 4 check (image_count between 1 and 4),
					add column seed bigint check (seed between 0 and 4294967295),
					add column negative_prompt text,
					add column quality text check (quality in ('low', 'medium', 'high'))`.execute(db);
			await sql`
				update generations set model_id = provider, model_label = case provider
					when 'local' then 'Offline engine'
					when 'http' then 'Image service'
					when 'comfyui' then 'ComfyUI'
					when 'replicate' then 'Replicate'
					when 'openai' then 'OpenAI'
					when 'fal' then 'fal'
					else provider end`.execute(db);
			await sql`alter table generations alter column model_id set not null, alter column model_label set not null`.execute(
				db,
			);
			// The history's model filter reads the narrow copy, like the ratio filter.
			await sql`alter table generation_search add column model_id text`.execute(db);
			await sql`update generation_search s set model_id = g.model_id from generations g where g.id = s.id`.execute(
				db,
			);
			await sql`alter table generation_search alter column model_id set not null`.execute(db);
			await sql`create index generation_search_user_model on generation_search (user_id, model_id, created_at desc, id desc)`.execute(
				db,
			);
			await sql`create index generation_search_model on generation_search (model_id, created_at desc, id desc)`.execute(
				db,
			);
			await sql`
				create or replace function mirror_generation_search() returns trigger language plpgsql as $$
				begin
					if tg_op = 'INSERT' then
						insert into generation_search (id, user_id, created_at, aspect_ratio, is_favorite, prompt_search, model_id)
						values (new.id, new.user_id, new.created_at, new.aspect_ratio, new.is_favorite, lower(new.prompt), new.model_id);
					else
						update generation_search
						set aspect_ratio = new.aspect_ratio, is_favorite = new.is_favorite, prompt_search = lower(new.prompt)
						where id = new.id;
					end if;
					return new;
				end
				$$`.execute(db);
		},
	},
	"0008_generation_price_per_image": {
		async up(db: Kysely<unknown>) {
			// The model's price per image (the catalogue's currency units) when the generation was made,
			// so a later change of price leaves past spend as it was. Null where the model had no price,
			// and on every generation made before prices were recorded.
			await sql`alter table generations add column price_per_image numeric`.execute(db);
		},
	},
	"0009_generation_image_bytes": {
		async up(db: Kysely<unknown>) {
			// Everything stored for a completed generation's images (originals, display copies,
			// thumbnails), in bytes, for the usage report. Null on generations completed before it was
			// recorded: a migration cannot read the image store, so the report counts those apart.
			await sql`alter table generations add column image_bytes bigint`.execute(db);
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
