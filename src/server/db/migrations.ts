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
	"0008_api_tokens": {
		async up(db: Kysely<unknown>) {
			// Personal API tokens (decision 018): only a SHA-256 hash of each is kept; revoking
			// deletes the row, so a revoked token is simply unknown from then on.
			await sql`
				create table api_tokens (
					id uuid primary key,
					user_id text not null references "user"(id) on delete cascade,
					name text not null,
					token_hash text not null unique,
					scopes text[] not null,
					created_at timestamptz not null,
					expires_at timestamptz,
					last_used_at timestamptz
				)`.execute(db);
			await sql`create index api_tokens_user on api_tokens (user_id, created_at desc)`.execute(db);
			// An Idempotency-Key of POST /api/generations, per person, for 24 hours: the generation
			// it made and a hash of the request, so a reused key with another body is refused.
			await sql`
				create table generation_idempotency_keys (
					user_id text not null references "user"(id) on delete cascade,
					key text not null,
					request_hash text not null,
					generation_id uuid not null references generations(id) on delete cascade,
					created_at timestamptz not null,
					primary key (user_id, key)
				)`.execute(db);
		},
	},
	"0009_webhooks": {
		async up(db: Kysely<unknown>) {
			// The signing secret is sealed with the server's secret (webhooks/webhook-secret.ts): it
			// must be readable to sign each delivery, so it cannot be a hash.
			await sql`
				create table webhook_endpoints (
					id uuid primary key,
					user_id text not null references "user"(id) on delete cascade,
					url text not null,
					events text[] not null,
					sealed_secret text not null,
					created_at timestamptz not null default now()
				)`.execute(db);
			await sql`create index webhook_endpoints_user on webhook_endpoints (user_id, created_at desc)`.execute(
				db,
			);
			// One row per event per endpoint: its id is the webhook-id every attempt sends, and its
			// body is fixed when the event happens, so every attempt sends the same bytes.
			await sql`
				create table webhook_deliveries (
					id text primary key,
					endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
					type text not null,
					body text not null,
					status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
					attempts integer not null default 0,
					last_status_code integer,
					last_error text,
					last_response text,
					created_at timestamptz not null default now(),
					last_attempt_at timestamptz,
					next_attempt_at timestamptz
				)`.execute(db);
			await sql`create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc)`.execute(
				db,
			);
		},
	},
	"0010_people": {
		async up(db: Kysely<unknown>) {
			// What each generation cost and weighs, recorded when it is made and stored: a model's
			// price may change later, and reading every object's size back from storage to total a
			// person's bytes would take minutes. Rows made before this have neither: their price is
			// filled at start from the catalogue's price of their model (fillUnrecordedPrices), their
			// bytes counted as unknown (0).
			await sql`
				alter table generations
					add column price_per_image numeric(12, 6),
					add column stored_bytes bigint`.execute(db);
			await sql`create index generations_unpriced on generations (model_id) where price_per_image is null`.execute(
				db,
			);
			// One row per person, for the administrator's People page: what the listing shows and
			// sorts by (kept as counters by the triggers below: adding them up from generations for
			// 10,000 people on every page would cost far more than the page), and what the
			// administrator controls (disabled; quotas that replace the defaults, null: the default).
			// Generations and spend count what was made (deleting a generation spends nothing back);
			// images and bytes count what is stored now; "this month" is the UTC month month_start.
			await sql`
				create table people (
					user_id text primary key references "user"(id) on delete cascade,
					email text not null,
					signed_up_at timestamptz not null,
					last_active_at timestamptz,
					generations bigint not null default 0,
					month_start date not null default date_trunc('month', now() at time zone 'UTC')::date,
					month_generations bigint not null default 0,
					images bigint not null default 0,
					image_bytes bigint not null default 0,
					spend numeric(16, 6) not null default 0,
					disabled_at timestamptz,
					max_active integer check (max_active between 1 and 1000),
					daily_limit integer check (daily_limit between 0 and 100000)
				)`.execute(db);
			// Each sortable column's first page is an index scan; search is by any part of the e-mail.
			for (const column of [
				"email",
				"signed_up_at",
				"generations",
				"images",
				"image_bytes",
				"spend",
			]) {
				await sql`create index ${sql.id(`people_by_${column}`)} on people (${sql.id(column)}, user_id)`.execute(
					db,
				);
			}
			await sql`create index people_by_last_active on people (last_active_at asc nulls last, user_id asc)`.execute(
				db,
			);
			await sql`create index people_by_last_active_desc on people (last_active_at desc nulls last, user_id desc)`.execute(
				db,
			);
			await sql`create index people_by_status on people ((disabled_at is not null), user_id)`.execute(
				db,
			);
			await sql`create index people_email_search on people using gin (lower(email) gin_trgm_ops) with (fastupdate = off)`.execute(
				db,
			);
			// A row for every person, from the moment Better Auth makes their user.
			await sql`
				create function mirror_person() returns trigger language plpgsql as $$
				begin
					if tg_op = 'INSERT' then
						insert into people (user_id, email, signed_up_at) values (new.id, new.email, new."createdAt")
						on conflict (user_id) do nothing;
					else
						update people set email = new.email where user_id = new.id;
					end if;
					return new;
				end
				$$`.execute(db);
			await sql`
				create trigger user_person
				after insert or update of email on "user"
				for each row execute function mirror_person()`.execute(db);
			await sql`
				create function track_person_usage() returns trigger language plpgsql as $$
				declare
					month_of date;
					image_delta bigint := 0;
					byte_delta bigint := 0;
					spend_delta numeric := 0;
				begin
					if tg_op in ('INSERT', 'UPDATE') and new.status = 'completed' then
						image_delta := jsonb_array_length(new.images);
						byte_delta := coalesce(new.stored_bytes, 0);
						spend_delta := jsonb_array_length(new.images) * coalesce(new.price_per_image, 0);
					end if;
					if tg_op in ('UPDATE', 'DELETE') and old.status = 'completed' then
						image_delta := image_delta - jsonb_array_length(old.images);
						byte_delta := byte_delta - coalesce(old.stored_bytes, 0);
						if tg_op = 'UPDATE' then
							spend_delta := spend_delta - jsonb_array_length(old.images) * coalesce(old.price_per_image, 0);
						end if;
					end if;
					if tg_op = 'INSERT' then
						month_of := date_trunc('month', new.created_at at time zone 'UTC')::date;
						update people set
							generations = generations + 1,
							month_generations = case
								when month_start = month_of then month_generations + 1
								when month_start > month_of then month_generations
								else 1 end,
							month_start = greatest(month_start, month_of),
							images = images + image_delta,
							image_bytes = image_bytes + byte_delta,
							spend = spend + spend_delta,
							last_active_at = greatest(last_active_at, new.created_at)
						where user_id = new.user_id;
						return new;
					end if;
					if image_delta <> 0 or byte_delta <> 0 or spend_delta <> 0 then
						update people set
							images = images + image_delta,
							image_bytes = image_bytes + byte_delta,
							spend = spend + spend_delta
						where user_id = old.user_id;
					end if;
					if tg_op = 'DELETE' then return old; end if;
					return new;
				end
				$$`.execute(db);
			await sql`
				create trigger generations_person_usage_insert_delete
				after insert or delete on generations
				for each row execute function track_person_usage()`.execute(db);
			// Only these columns: the run's frequent writes (lease renewals) do not fire it.
			await sql`
				create trigger generations_person_usage_update
				after update of status, images, stored_bytes, price_per_image on generations
				for each row execute function track_person_usage()`.execute(db);
			// Last active: a generation made, or a session used (Better Auth refreshes a session's
			// updatedAt at most once a day, so this is as precise as a day).
			await sql`
				create function track_session_activity() returns trigger language plpgsql as $$
				begin
					update people set last_active_at = greatest(last_active_at, new."updatedAt")
					where user_id = new."userId";
					return new;
				end
				$$`.execute(db);
			await sql`
				create trigger session_person_activity
				after insert or update of "updatedAt" on "session"
				for each row execute function track_session_activity()`.execute(db);
			await sql`
				insert into people (user_id, email, signed_up_at, last_active_at)
				select u.id, u.email, u."createdAt", (select max(s."updatedAt") from "session" s where s."userId" = u.id)
				from "user" u`.execute(db);
			await sql`
				update people set
					generations = counted.generations,
					month_generations = counted.month_generations,
					images = counted.images,
					last_active_at = greatest(people.last_active_at, counted.last_created_at)
				from (
					select
						user_id,
						count(*) as generations,
						count(*) filter (where created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC') as month_generations,
						coalesce(sum(jsonb_array_length(images)) filter (where status = 'completed'), 0) as images,
						max(created_at) as last_created_at
					from generations group by user_id
				) as counted
				where people.user_id = counted.user_id`.execute(db);
			// The audit log also records what the administrator does to people: disable, enable,
			// quotas, and deleting an account. Those have no generation; the details say what was set.
			// An account's deletion names nobody who still exists, so its entry has no owner reference
			// (it must outlive the account it records).
			await sql`alter table generation_audit_log drop constraint generation_audit_log_action_check`.execute(
				db,
			);
			await sql`
				alter table generation_audit_log
					add constraint generation_audit_log_action_check
						check (action in ('delete', 'disable', 'enable', 'set-quota', 'delete-account')),
					alter column generation_id drop not null,
					alter column prompt drop not null,
					alter column owner_id drop not null,
					add column details text`.execute(db);
		},
	},
	"0011_generation_progress": {
		// What a run reports while it works (reportProgress in generation-lifecycle.ts): its stage,
		// the provider's percent (never lower than before), step and steps, the provider's own queue
		// position, and the latest preview frame's storage key. The finishing transitions clear them.
		async up(db) {
			await sql`
				alter table generations
					add column progress_stage text
						check (progress_stage in ('starting', 'queued', 'running', 'saving')),
					add column progress_percent real check (progress_percent between 0 and 100),
					add column progress_step integer,
					add column progress_steps integer,
					add column progress_position integer,
					add column preview_key text`.execute(db);
		},
	},
	"0012_queue_turns": {
		async up(db: Kysely<unknown>) {
			// The fair queue (decision 020) asks, at every claim, when each waiting person last had a
			// turn: the latest start among their generations, found here without reading their history.
			await sql`create index generations_turns on generations (user_id, started_at desc) where started_at is not null`.execute(
				db,
			);
		},
	},
	"0013_image_input": {
		// Images people upload to start from (a reference), private to them: stored once checked by
		// content and stripped of metadata; one no generation used is removed after a day.
		// A generation made from an image (vary, upscale, edit) keeps a copy of that image in its own
		// folder (`reference_image`), so it runs and stays whole whatever happens to where it came
		// from. Its parent is kept as an id, without a foreign key, so it outlives the parent's
		// deletion ("The original was deleted"); `from_upload` marks an edit of an uploaded file.
		async up(db) {
			await sql`
				create table uploads (
					id uuid primary key,
					user_id text not null references "user" (id) on delete cascade,
					storage_key text not null,
					content_type text not null
						check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
					width integer not null,
					height integer not null,
					bytes integer not null,
					created_at timestamptz not null default now(),
					used_at timestamptz
				)`.execute(db);
			await sql`create index uploads_user on uploads (user_id, created_at desc)`.execute(db);
			// The daily removal looks only at uploads no generation used.
			await sql`create index uploads_unused on uploads (created_at) where used_at is null`.execute(
				db,
			);
			await sql`
				alter table generations
					add column action text
						check (action in ('vary-subtle', 'vary-strong', 'upscale', 'edit')),
					add column reference_strength real
						check (reference_strength between 0 and 1),
					add column upscale_factor integer check (upscale_factor in (2, 4)),
					add column reference_image jsonb,
					add column parent_generation_id uuid,
					add column parent_image_index integer check (parent_image_index >= 0),
					add column from_upload boolean not null default false`.execute(db);
			// A generation's children ("Made from this", childrenCount).
			await sql`
				create index generations_children on generations (parent_generation_id, created_at desc)
					where parent_generation_id is not null`.execute(db);
		},
	},
	"0014_image_children": {
		// "Made from this" is per image: the family of one image (GET /api/generations/:id/family
		// ?imageIndex=) reads a parent's children made from that image, newest first. The children's
		// index is keyed by the image too, in the order the family lists them, so that query reads
		// only its 50 entries; the count per parent (childrenCount) and the family of all images
		// still read its leading column.
		async up(db) {
			await sql`drop index generations_children`.execute(db);
			await sql`
				create index generations_children
					on generations (parent_generation_id, parent_image_index, created_at desc, id desc)
					where parent_generation_id is not null`.execute(db);
		},
	},
	"0015_administrator_claims": {
		// The account at ADMIN_EMAIL holds the administrator's powers only once someone proved the
		// address (decision 022): a reset link opened from its mailbox, or Google. Not the user's
		// emailVerified: an ordinary verification link leaves in place the password of whoever
		// signed up first. The address is kept with the claim, so a new ADMIN_EMAIL needs its own.
		async up(db) {
			await sql`
				create table administrator_claims (
					user_id text primary key references "user"(id) on delete cascade,
					email text not null,
					claimed_at timestamptz not null
				)`.execute(db);
		},
	},
	"0017_webhook_fairness": {
		// An endpoint's turn: at most one attempt in flight an endpoint, whoever's worker sends it
		// (webhooks/webhook-deliveries.ts, decision 025). The holder is the attempt's job, so a job
		// pg-boss retries takes its own turn back; the lease lets another take it after a crash.
		async up(db) {
			await sql`
				create table webhook_endpoint_turns (
					endpoint_id uuid primary key references webhook_endpoints(id) on delete cascade,
					holder text not null,
					lease_until timestamptz not null
				)`.execute(db);
			// An endpoint's waiting deliveries: counted against its cap, the next one due taken in turn.
			await sql`
				create index webhook_deliveries_pending on webhook_deliveries (endpoint_id, next_attempt_at)
					where status = 'pending'`.execute(db);
			// Settled deliveries by age, for the hourly pruning.
			await sql`
				create index webhook_deliveries_settled on webhook_deliveries (created_at)
					where status <> 'pending'`.execute(db);
		},
	},
	"0018_audit_entries_outlive_people": {
		// The audit log's entries about a person went with the person's account (0006 made their
		// owner reference cascade), so deleting an account erased the record of what the
		// administrator had done to it. They now stay, the reference cleared: each entry has kept
		// the e-mail addresses of its owner and its administrator since 0006 (owner_email and
		// actor_email are not null), so there is nothing to backfill; the entries already erased
		// cannot be brought back.
		async up(db) {
			await sql`
				alter table generation_audit_log
					drop constraint generation_audit_log_owner_id_fkey,
					add constraint generation_audit_log_owner_id_fkey
						foreign key (owner_id) references "user"(id) on delete set null`.execute(db);
		},
	},
	"0019_queue_waits": {
		// The fair queue (decision 020) forgets the turns given before the queue's current wait: the
		// time since something was last queued or running without a break. Each generation records,
		// when it is inserted, the wait it joins: the one its unfinished generations share, or a new
		// one beginning with it. Unlike a wait read from the unfinished generations' own times, it
		// does not move when a generation ends, so an end changes nobody's place in the queue.
		async up(db) {
			await sql`alter table generations add column wait_began_at timestamptz`.execute(db);
			await sql`
				create function join_queue_wait() returns trigger language plpgsql as $$
				begin
					new.wait_began_at := coalesce(
						(select min(wait_began_at) from generations where status in ('queued', 'running')),
						-- The database's clock, as the turns' started_at: created_at is the server's.
						now()
					);
					return new;
				end
				$$`.execute(db);
			await sql`
				create trigger generations_queue_wait
				before insert on generations
				for each row execute function join_queue_wait()`.execute(db);
			// The wait under way began with its oldest unfinished generation; finished generations
			// joined none that matters any more and keep null.
			await sql`
				update generations
				set wait_began_at = (
					select min(created_at) from generations where status in ('queued', 'running')
				)
				where status in ('queued', 'running')`.execute(db);
		},
	},
	"0021_push_subscriptions": {
		// A browser's Web Push subscription (decision 028): one row per endpoint, its owner and the
		// session it was made in. Signing out on that device, disabling the person, taking the
		// account back and deleting it all delete sessions, and the subscription goes with its own.
		async up(db) {
			await sql`
				create table push_subscriptions (
					id uuid primary key,
					user_id text not null references "user"(id) on delete cascade,
					session_id text not null references session(id) on delete cascade,
					endpoint text not null unique,
					p256dh text not null,
					auth text not null,
					label text not null,
					vapid_public_key text not null,
					created_at timestamptz not null default now(),
					last_notified_at timestamptz
				)`.execute(db);
			await sql`create index push_subscriptions_user on push_subscriptions (user_id, created_at)`.execute(
				db,
			);
			await sql`create index push_subscriptions_session on push_subscriptions (session_id)`.execute(
				db,
			);
		},
	},
	"0030_account_language": {
		// The language a person reads (decision 037): "browser" follows its Accept-Language.
		async up(db) {
			await sql`
				alter table account_settings add column language text not null default 'browser'
					check (language in ('browser', 'en', 'de'))`.execute(db);
		},
	},
	"0026_account_settings": {
		// A person's own settings, one row each, made at their first change (none is every
		// default): the theme, which the browser also keeps to paint before its first frame
		// (decision 035). Later settings are columns of the same row.
		async up(db) {
			await sql`
				create table account_settings (
					user_id text primary key references "user"(id) on delete cascade,
					theme text not null default 'system' check (theme in ('system', 'light', 'dark')),
					updated_at timestamptz not null default now()
				)`.execute(db);
		},
	},
	"0023_boards": {
		// Boards (decision 032): a person's named labels, a generation on any number of them. A
		// smart board keeps a saved search in `query` and no memberships. A board goes with its
		// owner, and a membership with its board or its generation.
		async up(db) {
			await sql`
				create table boards (
					id uuid primary key,
					user_id text not null references "user"(id) on delete cascade,
					name text not null,
					kind text not null check (kind in ('board', 'smart')),
					visibility text not null default 'private' check (visibility in ('private', 'shared')),
					query jsonb,
					created_at timestamptz not null default now(),
					updated_at timestamptz not null default now(),
					check ((kind = 'smart') = (query is not null))
				)`.execute(db);
			await sql`create index boards_user on boards (user_id, created_at)`.execute(db);
			await sql`create index boards_shared on boards (created_at) where visibility = 'shared'`.execute(
				db,
			);
			await sql`
				create table board_generations (
					board_id uuid not null references boards(id) on delete cascade,
					generation_id uuid not null references generations(id) on delete cascade,
					added_at timestamptz not null default now(),
					primary key (board_id, generation_id)
				)`.execute(db);
			// A generation's deletion finds its memberships by this index.
			await sql`create index board_generations_generation on board_generations (generation_id)`.execute(
				db,
			);
		},
	},
	"0027_share_links": {
		// Links to a generation or one of its images (decision 036). The token is kept as its
		// SHA-256 only, so a dump of the database opens no link. A link outlives its generation
		// (the reference is cleared: the link has ended, 410) but goes with its owner's account; a
		// revoked, hidden or expired one stays, so its token answers 410 or 451 instead of 404, and
		// is never made live again.
		async up(db) {
			await sql`
				create table shares (
					id uuid primary key,
					user_id text not null references "user"(id) on delete cascade,
					generation_id uuid references generations(id) on delete set null,
					image_index integer check (image_index between 0 and 3),
					token_hash text not null unique,
					expires_at timestamptz,
					originals boolean not null,
					show_prompt boolean not null,
					created_at timestamptz not null default now(),
					revoked_at timestamptz,
					hidden_at timestamptz,
					views integer not null default 0,
					last_viewed_at timestamptz
				)`.execute(db);
			await sql`create index shares_user on shares (user_id, created_at)`.execute(db);
			await sql`create index shares_generation on shares (generation_id)`.execute(db);
			await sql`create index shares_created on shares (created_at)`.execute(db);
			// What visitors report about a link: the administrator's queue.
			await sql`
				create table share_reports (
					id uuid primary key,
					share_id uuid not null references shares(id) on delete cascade,
					reason text not null,
					created_at timestamptz not null default now()
				)`.execute(db);
			await sql`create index share_reports_created on share_reports (created_at)`.execute(db);
			await sql`create index share_reports_share on share_reports (share_id)`.execute(db);
			// The administrator's Hide and Revoke of someone's link are audited.
			await sql`alter table generation_audit_log drop constraint generation_audit_log_action_check`.execute(
				db,
			);
			await sql`
				alter table generation_audit_log
					add constraint generation_audit_log_action_check
						check (action in ('delete', 'restore', 'purge', 'disable', 'enable', 'set-quota', 'delete-account', 'hide-share', 'revoke-share'))`.execute(
				db,
			);
		},
	},
	"0022_trash": {
		// The Trash (decision 031): a deleted generation keeps its row, with when and by whom it was
		// deleted, until it is restored or purged. While it is there it is gone from everything else:
		// it leaves generation_search (so every search and filter of the history skips it), the
		// history's counter and the counts of stored images and bytes, and comes back into them when
		// restored. Its boards, favourite and family links stay as they are.
		async up(db) {
			await sql`
				alter table generations
					add column deleted_at timestamptz,
					add column deleted_by text references "user"(id) on delete set null`.execute(db);
			// A person's Trash, newest deletion first; and the purge's oldest first.
			await sql`
				create index generations_trash on generations (user_id, deleted_at desc, id desc)
					where deleted_at is not null`.execute(db);
			await sql`
				create index generations_trash_age on generations (deleted_at)
					where deleted_at is not null`.execute(db);
			await sql`
				create function trash_generation_search() returns trigger language plpgsql as $$
				begin
					if old.deleted_at is null and new.deleted_at is not null then
						delete from generation_search where id = new.id;
						update generation_counts set total = total - 1 where user_id = new.user_id;
					elsif old.deleted_at is not null and new.deleted_at is null then
						insert into generation_search (id, user_id, created_at, aspect_ratio, is_favorite, prompt_search, model_id)
						values (new.id, new.user_id, new.created_at, new.aspect_ratio, new.is_favorite, lower(new.prompt), new.model_id)
						on conflict (id) do nothing;
						update generation_counts set total = total + 1 where user_id = new.user_id;
					end if;
					return new;
				end
				$$`.execute(db);
			await sql`
				create trigger generations_search_trash
				after update of deleted_at on generations
				for each row execute function trash_generation_search()`.execute(db);
			// A trashed generation was taken off the counter when it went to the Trash.
			await sql`
				create or replace function count_generations() returns trigger language plpgsql as $$
				begin
					if tg_op = 'INSERT' then
						insert into generation_counts (user_id, total) values (new.user_id, 1)
						on conflict (user_id) do update set total = generation_counts.total + 1;
						return new;
					end if;
					if old.deleted_at is null then
						update generation_counts set total = total - 1 where user_id = old.user_id;
					end if;
					return old;
				end
				$$`.execute(db);
			// A person's images and bytes count what is stored and not in the Trash: a completed
			// generation counts while it is out of the Trash. Generations and spend count what was
			// made, as before.
			await sql`
				create or replace function track_person_usage() returns trigger language plpgsql as $$
				declare
					month_of date;
					image_delta bigint := 0;
					byte_delta bigint := 0;
					spend_delta numeric := 0;
				begin
					if tg_op in ('INSERT', 'UPDATE') and new.status = 'completed' then
						if new.deleted_at is null then
							image_delta := jsonb_array_length(new.images);
							byte_delta := coalesce(new.stored_bytes, 0);
						end if;
						spend_delta := jsonb_array_length(new.images) * coalesce(new.price_per_image, 0);
					end if;
					if tg_op in ('UPDATE', 'DELETE') and old.status = 'completed' then
						if old.deleted_at is null then
							image_delta := image_delta - jsonb_array_length(old.images);
							byte_delta := byte_delta - coalesce(old.stored_bytes, 0);
						end if;
						if tg_op = 'UPDATE' then
							spend_delta := spend_delta - jsonb_array_length(old.images) * coalesce(old.price_per_image, 0);
						end if;
					end if;
					if tg_op = 'INSERT' then
						month_of := date_trunc('month', new.created_at at time zone 'UTC')::date;
						update people set
							generations = generations + 1,
							month_generations = case
								when month_start = month_of then month_generations + 1
								when month_start > month_of then month_generations
								else 1 end,
							month_start = greatest(month_start, month_of),
							images = images + image_delta,
							image_bytes = image_bytes + byte_delta,
							spend = spend + spend_delta,
							last_active_at = greatest(last_active_at, new.created_at)
						where user_id = new.user_id;
						return new;
					end if;
					if image_delta <> 0 or byte_delta <> 0 or spend_delta <> 0 then
						update people set
							images = images + image_delta,
							image_bytes = image_bytes + byte_delta,
							spend = spend + spend_delta
						where user_id = old.user_id;
					end if;
					if tg_op = 'DELETE' then return old; end if;
					return new;
				end
				$$`.execute(db);
			await sql`drop trigger generations_person_usage_update on generations`.execute(db);
			await sql`
				create trigger generations_person_usage_update
				after update of status, images, stored_bytes, price_per_image, deleted_at on generations
				for each row execute function track_person_usage()`.execute(db);
			// The audit log records the administrator's restores of others' generations, and the
			// purge of generations the administrator sent to someone's Trash.
			await sql`alter table generation_audit_log drop constraint generation_audit_log_action_check`.execute(
				db,
			);
			await sql`
				alter table generation_audit_log
					add constraint generation_audit_log_action_check
						check (action in ('delete', 'restore', 'purge', 'disable', 'enable', 'set-quota', 'delete-account'))`.execute(
				db,
			);
		},
	},
	"0024_region_edits": {
		// Edit region and Expand (decision 033): two more actions, the mask a region edit keeps in
		// its folder beside its reference copy, and where an expansion's source sits in its frame.
		async up(db) {
			await sql`alter table generations drop constraint generations_action_check`.execute(db);
			await sql`
				alter table generations
					add constraint generations_action_check check (action in (
						'vary-subtle', 'vary-strong', 'upscale', 'edit', 'edit-region', 'expand'
					)),
					add column region_mask jsonb,
					add column expand_frame jsonb`.execute(db);
		},
	},
	"0025_1_prompt_styles": {
		// Styles (decision 034): a person's own, and on each generation the style it was made with,
		// its id and name at creation, and what the provider was asked for (the prompt and negative
		// prompt it expanded to), so a renamed or deleted style changes no past generation.
		async up(db) {
			await sql`
				create table prompt_styles (
					id uuid primary key,
					user_id text not null references "user"(id) on delete cascade,
					name text not null,
					prompt text not null,
					negative_prompt text,
					created_at timestamptz not null default now(),
					updated_at timestamptz not null default now()
				)`.execute(db);
			await sql`create index prompt_styles_user on prompt_styles (user_id, name)`.execute(db);
			await sql`
				alter table generations
					add column style_id text,
					add column style_name text,
					add column styled_prompt text,
					add column styled_negative_prompt text`.execute(db);
			await sql`create index generations_style on generations (style_id) where style_id is not null`.execute(
				db,
			);
		},
	},
	"0025_2_recent_prompts": {
		// Recall (decision 034): a person's last distinct prompts, one row a prompt, written with
		// each generation they create; at most 100 a person, the oldest forgotten first.
		async up(db) {
			await sql`
				create table recent_prompts (
					user_id text not null references "user"(id) on delete cascade,
					prompt text not null,
					last_used_at timestamptz not null,
					primary key (user_id, prompt)
				)`.execute(db);
			await sql`create index recent_prompts_newest on recent_prompts (user_id, last_used_at desc)`.execute(
				db,
			);
		},
	},
	"0032_board_page_order": {
		// A board's page walks its memberships in the history's order (decision 032): each keeps its
		// generation's created_at, copied as it is written (a generation's created_at never
		// changes), so one index gives a board's rows newest first and a page reads only its own.
		async up(db) {
			await sql`alter table board_generations add column generation_created_at timestamptz`.execute(
				db,
			);
			await sql`
				update board_generations as member set generation_created_at = generations.created_at
				from generations where generations.id = member.generation_id`.execute(db);
			await sql`alter table board_generations alter column generation_created_at set not null`.execute(
				db,
			);
			await sql`
				create function copy_generation_created_at() returns trigger language plpgsql as $$
				begin
					select created_at into new.generation_created_at from generations where id = new.generation_id;
					return new;
				end
				$$`.execute(db);
			await sql`
				create trigger board_generations_created_at
				before insert on board_generations
				for each row execute function copy_generation_created_at()`.execute(db);
			await sql`
				create index board_generations_page
				on board_generations (board_id, generation_created_at desc, generation_id desc)`.execute(
				db,
			);
		},
	},
	"0031_board_share_links": {
		// A link may show a board (decision 036): the board's reference, cleared when the board is
		// deleted (the link has ended, 410), as a generation's is. A link shows one or the other.
		async up(db) {
			await sql`alter table shares add column board_id uuid references boards(id) on delete set null`.execute(
				db,
			);
			await sql`create index shares_board on shares (board_id) where board_id is not null`.execute(
				db,
			);
		},
	},
	"0028_batches": {
		// Batches (decision 038): the generations one submission made together (variations of one
		// prompt, or one prompt on several models) share an id; listed by it, so indexed where set.
		async up(db) {
			await sql`alter table generations add column batch_id uuid`.execute(db);
			await sql`create index generations_batch on generations (batch_id, created_at, id) where batch_id is not null`.execute(
				db,
			);
		},
	},
	"0029_prompt_enhancements": {
		// Enhance (decision 039): each rewrite asked of the operator's chat endpoint, one row a call,
		// for the Usage page's counts per person; and on a generation made from an enhanced prompt,
		// the prompt as the person had written it, kept in its recipe beside the prompt used.
		async up(db) {
			await sql`
				create table prompt_enhancements (
					id uuid primary key,
					user_id text not null references "user"(id) on delete cascade,
					created_at timestamptz not null default now()
				)`.execute(db);
			await sql`create index prompt_enhancements_created on prompt_enhancements (created_at, user_id)`.execute(
				db,
			);
			await sql`alter table generations add column original_prompt text`.execute(db);
		},
	},
	"0038_parent_upload": {
		// Which upload an edit of an uploaded file was made from, so its Use settings reopens the
		// editor on that upload while the server holds it (decision 033). No foreign key: the upload
		// may go (with its account) before the generation does, which then says the upload is gone.
		// Edits recorded before it have none.
		async up(db) {
			await sql`alter table generations add column parent_upload_id uuid`.execute(db);
		},
	},
	"0040_board_counts": {
		// A board keeps how many of its generations are out of the Trash (decision 032), so neither
		// its page nor the boards list counts its memberships on every request. A membership counts
		// while its generation is out of the Trash: putting one on or taking it off, moving its
		// generation to the Trash and back, and deleting the generation for good each change it.
		// The membership's trigger reads its generation FOR SHARE, so it waits for a move to or from
		// the Trash under way and reads the state that move leaves: the two are counted once.
		async up(db) {
			await sql`alter table boards add column generation_count integer not null default 0`.execute(
				db,
			);
			await sql`
				update boards set generation_count = (
					select count(*) from board_generations as member
					join generations on generations.id = member.generation_id
					where member.board_id = boards.id and generations.deleted_at is null)`.execute(db);
			await sql`
				create function count_board_membership() returns trigger language plpgsql as $$
				declare
					is_counted boolean;
					membership board_generations;
				begin
					if tg_op = 'INSERT' then membership := new; else membership := old; end if;
					-- Nothing to count when the membership goes with its board.
					perform 1 from boards where id = membership.board_id;
					if not found then return null; end if;
					-- Gone already when the membership goes with its generation, which counted it off.
					select deleted_at is null into is_counted from generations
					where id = membership.generation_id for share;
					if is_counted then
						update boards
						set generation_count = generation_count + case when tg_op = 'INSERT' then 1 else -1 end
						where id = membership.board_id;
					end if;
					return null;
				end
				$$`.execute(db);
			await sql`
				create trigger board_generations_count
				after insert or delete on board_generations
				for each row execute function count_board_membership()`.execute(db);
			await sql`
				create function count_board_generations() returns trigger language plpgsql as $$
				begin
					if tg_op = 'DELETE' then
						if old.deleted_at is null then
							update boards set generation_count = generation_count - 1
							where id in (select board_id from board_generations where generation_id = old.id);
						end if;
						return old;
					end if;
					update boards
					set generation_count = generation_count + case when new.deleted_at is null then 1 else -1 end
					where id in (select board_id from board_generations where generation_id = new.id);
					return new;
				end
				$$`.execute(db);
			// Before the deletion, while its memberships are still there to say which boards held it.
			await sql`
				create trigger generations_board_count_delete
				before delete on generations
				for each row execute function count_board_generations()`.execute(db);
			await sql`
				create trigger generations_board_count_trash
				after update of deleted_at on generations
				for each row when ((old.deleted_at is null) <> (new.deleted_at is null))
				execute function count_board_generations()`.execute(db);
		},
	},
	"0041_push_subscription_language": {
		// The language of the browser that turned a device's pushes on, for the pushes of an account
		// that follows its browser's language (docs/languages.md): no browser asks when a push is
		// sent. Devices turned on before it have none, and get English as before.
		async up(db) {
			await sql`alter table push_subscriptions add column language text`.execute(db);
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
