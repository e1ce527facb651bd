import { randomUUID } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";
import type { DatabaseSchema } from "../db/schema";

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** A link's row with the prompt of the generation it shows (what the lists say it is). */
export type ShareWithPrompt = {
	id: string;
	user_id: string;
	generation_id: string | null;
	image_index: number | null;
	/** A board's link; null once the board is deleted, and for a generation's. */
	board_id: string | null;
	token_hash: string;
	expires_at: Date | null;
	originals: boolean;
	show_prompt: boolean;
	created_at: Date;
	revoked_at: Date | null;
	hidden_at: Date | null;
	views: number;
	last_viewed_at: Date | null;
	/** Null once the generation is deleted, and for a board's link. */
	prompt: string | null;
	/** The board's name; null once it is deleted, and for a generation's link. */
	board_name: string | null;
};

const SHARE_COLUMNS = [
	"shares.id",
	"shares.user_id",
	"shares.generation_id",
	"shares.image_index",
	"shares.board_id",
	"shares.token_hash",
	"shares.expires_at",
	"shares.originals",
	"shares.show_prompt",
	"shares.created_at",
	"shares.revoked_at",
	"shares.hidden_at",
	"shares.views",
	"shares.last_viewed_at",
	"generations.prompt",
	"boards.name as board_name",
] as const;

export type NewShare = {
	userId: string;
	/** One of the two: a generation (and maybe one image of it), or a board. */
	generationId: string | null;
	imageIndex: number | null;
	boardId: string | null;
	tokenHash: string;
	expiresAt: Date | null;
	originals: boolean;
	showPrompt: boolean;
};

export async function insertShare(db: Executor, share: NewShare): Promise<string> {
	const id = randomUUID();
	await db
		.insertInto("shares")
		.values({
			id,
			user_id: share.userId,
			generation_id: share.generationId,
			image_index: share.imageIndex,
			board_id: share.boardId,
			token_hash: share.tokenHash,
			expires_at: share.expiresAt,
			originals: share.originals,
			show_prompt: share.showPrompt,
			created_at: new Date(),
		})
		.execute();
	return id;
}

function selectShares(db: Executor) {
	return db
		.selectFrom("shares")
		.leftJoin("generations", "generations.id", "shares.generation_id")
		.leftJoin("boards", "boards.id", "shares.board_id")
		.select(SHARE_COLUMNS);
}

export async function findShareById(
	db: Executor,
	id: string,
): Promise<ShareWithPrompt | undefined> {
	return selectShares(db).where("shares.id", "=", id).executeTakeFirst();
}

/** The link a token's hash names, whatever its state. */
export async function findShareByTokenHash(
	db: Executor,
	tokenHash: string,
): Promise<ShareWithPrompt | undefined> {
	return selectShares(db).where("shares.token_hash", "=", tokenHash).executeTakeFirst();
}

/** A person's links, newest first. */
export async function selectSharesOfUser(db: Executor, userId: string): Promise<ShareWithPrompt[]> {
	return selectShares(db)
		.where("shares.user_id", "=", userId)
		.orderBy("shares.created_at", "desc")
		.orderBy("shares.id", "desc")
		.limit(500)
		.execute();
}

/** How many of a person's links are neither revoked, hidden nor expired. */
export async function countLiveSharesOfUser(db: Executor, userId: string): Promise<number> {
	const row = await db
		.selectFrom("shares")
		.select((eb) => eb.fn.countAll<string>().as("count"))
		.where("user_id", "=", userId)
		.where("revoked_at", "is", null)
		.where("hidden_at", "is", null)
		.where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", sql<Date>`now()`)]))
		.executeTakeFirst();
	return Number(row?.count ?? 0);
}

/** Ends a link for good; false when it was already revoked (or is not there). */
export async function markShareRevoked(db: Executor, id: string): Promise<boolean> {
	const result = await db
		.updateTable("shares")
		.set({ revoked_at: new Date() })
		.where("id", "=", id)
		.where("revoked_at", "is", null)
		.executeTakeFirst();
	return result.numUpdatedRows > 0n;
}

/**
 * Ends for good every live link to these generations, as they go to the Trash: restoring them
 * later does not open their links again (their owner makes new ones).
 */
export async function revokeSharesOfGenerations(
	db: Executor,
	generationIds: readonly string[],
): Promise<void> {
	if (generationIds.length === 0) return;
	await db
		.updateTable("shares")
		.set({ revoked_at: new Date() })
		.where("generation_id", "in", generationIds)
		.where("revoked_at", "is", null)
		.execute();
}

/** The administrator's takedown; false when it was already hidden. */
export async function markShareHidden(db: Executor, id: string): Promise<boolean> {
	const result = await db
		.updateTable("shares")
		.set({ hidden_at: new Date() })
		.where("id", "=", id)
		.where("hidden_at", "is", null)
		.executeTakeFirst();
	return result.numUpdatedRows > 0n;
}

/** One view of a shared page: one statement, so views are counted without reading first. */
export async function countShareView(db: Executor, id: string): Promise<void> {
	await db
		.updateTable("shares")
		.set((eb) => ({ views: eb("views", "+", 1), last_viewed_at: new Date() }))
		.where("id", "=", id)
		.execute();
}

export async function insertShareReport(db: Executor, shareId: string, reason: string) {
	await db
		.insertInto("share_reports")
		.values({ id: randomUUID(), share_id: shareId, reason, created_at: new Date() })
		.execute();
}

/**
 * Everyone's links for the administrator, newest first, with their owner and report counts; with
 * `id`, that one link.
 */
export async function selectAdminShares(db: Executor, options: { limit: number; id?: string }) {
	let query = selectShares(db)
		.innerJoin("user", "user.id", "shares.user_id")
		.select((eb) => [
			"user.email as owner_email",
			eb
				.selectFrom("share_reports")
				.select((inner) => inner.fn.countAll<string>().as("count"))
				.whereRef("share_reports.share_id", "=", "shares.id")
				.as("reports"),
		])
		.orderBy("shares.created_at", "desc")
		.orderBy("shares.id", "desc")
		.limit(options.limit);
	if (options.id !== undefined) query = query.where("shares.id", "=", options.id);
	return query.execute();
}

/** The reports queue, newest first, each with its link as the administrator lists it. */
export async function selectShareReports(db: Executor, limit: number) {
	return db
		.selectFrom("share_reports")
		.innerJoin("shares", "shares.id", "share_reports.share_id")
		.leftJoin("generations", "generations.id", "shares.generation_id")
		.leftJoin("boards", "boards.id", "shares.board_id")
		.innerJoin("user", "user.id", "shares.user_id")
		.select(SHARE_COLUMNS)
		.select((eb) => [
			"share_reports.id as report_id",
			"share_reports.reason",
			"share_reports.created_at as reported_at",
			"user.email as owner_email",
			eb
				.selectFrom("share_reports as counted")
				.select((inner) => inner.fn.countAll<string>().as("count"))
				.whereRef("counted.share_id", "=", "shares.id")
				.as("reports"),
		])
		.orderBy("share_reports.created_at", "desc")
		.orderBy("share_reports.id", "desc")
		.limit(limit)
		.execute();
}

/** The e-mail of a link's owner, for the audit log. */
export async function findOwnerEmail(db: Executor, userId: string): Promise<string | undefined> {
	const row = await db
		.selectFrom("user")
		.select("email")
		.where("id", "=", userId)
		.executeTakeFirst();
	return row?.email;
}
