import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { AspectRatio } from "../../shared/aspect-ratios";
import { GENERATION_MESSAGES } from "../../shared/generation-flow";
import { ACTIVE_GENERATION_STATUSES } from "../../shared/generation-responses";
import {
	type Generation,
	GenerationIdSchema,
	type GenerationPage,
	type PollResponse,
} from "../../shared/generations";
import type { AuditLogPage } from "../../shared/history-responses";
import type { Database } from "../db/database";
import type { GenerationRow } from "../db/schema";
import { AppError } from "../http/errors";
import { createTransactionExecutor, type GenerationQueue } from "../jobs/generation-queue";
import type { Logger } from "../logging/logger";
import type { ImageProvider } from "../providers/types";
import type { Storage } from "../storage/storage";
import { insertDeletionEntries, selectAuditLogPage } from "./audit-log-repository";
import type { GenerationEvents } from "./generation-events";
import {
	countActiveGenerations,
	countGenerationsSince,
	countHistory,
	deleteGenerationRows,
	findGenerationById,
	findUserIdByEmail,
	type GenerationWithOwner,
	type HistoryCursor,
	type HistoryFilters,
	insertGeneration,
	notifyGenerationsChanged,
	selectGenerationPage,
} from "./generation-repository";
import { generationFolder } from "./store-images";

export type Viewer = { id: string; email: string; isAdmin: boolean };

export type GenerationLimits = {
	maxActivePerUser: number;
	/** 0 turns the daily limit off. */
	dailyLimitPerUser: number;
};

export type GenerationDeps = {
	database: Database;
	storage: Storage;
	queue: GenerationQueue;
	events: GenerationEvents;
	/** Makes the images; a deleted generation's job is cancelled there, where the provider can. */
	provider: ImageProvider;
	imagesPerGeneration: number;
	limits: GenerationLimits;
	logger: Logger;
};

export function pollingUrlFor(id: string): string {
	return `/api/generations/${id}/status`;
}

function imageUrl(key: string): string {
	return `/api/images/${key}`;
}

export function presentGeneration(row: GenerationWithOwner): Generation {
	return {
		id: row.id,
		prompt: row.prompt,
		aspect_ratio: row.aspect_ratio,
		status: row.status,
		error: row.error,
		images: row.images.map((image) => ({
			url: imageUrl(image.key),
			width: image.width,
			height: image.height,
			...(image.displayKey && image.displayWidth && image.displayHeight
				? {
						displayUrl: imageUrl(image.displayKey),
						displayWidth: image.displayWidth,
						displayHeight: image.displayHeight,
					}
				: {}),
			thumbnailUrl: imageUrl(image.thumbnailKey),
			thumbnailWidth: image.thumbnailWidth,
			thumbnailHeight: image.thumbnailHeight,
		})),
		created_at: row.created_at.toISOString(),
		completed_at: row.completed_at ? row.completed_at.toISOString() : null,
		api_id: row.api_id,
		polling_url: row.polling_url,
		user_id: row.user_id,
		is_favorite: row.is_favorite,
		...(row.owner_email !== undefined ? { owner_email: row.owner_email } : {}),
	};
}

function startOfUtcDay(now: Date): Date {
	return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Records a generation and queues its job in one transaction, after the quota check; a lock per
 * person makes two simultaneous requests count each other.
 */
export async function createGeneration(
	deps: GenerationDeps,
	viewer: Viewer,
	input: { prompt: string; aspectRatio: AspectRatio },
): Promise<{ id: string; pollingUrl: string }> {
	const id = randomUUID();
	const pollingUrl = pollingUrlFor(id);
	await deps.database.db.transaction().execute(async (transaction) => {
		await sql`select pg_advisory_xact_lock(hashtext(${`generations:${viewer.id}`}))`.execute(
			transaction,
		);
		const active = await countActiveGenerations(transaction, viewer.id);
		if (active >= deps.limits.maxActivePerUser) {
			throw new AppError(
				"QUOTA_EXCEEDED",
				`You already have ${active} generation${active === 1 ? "" : "s"} in progress (the limit is ${deps.limits.maxActivePerUser}). Please wait for one to finish.`,
			);
		}
		if (deps.limits.dailyLimitPerUser > 0) {
			const today = await countGenerationsSince(transaction, viewer.id, startOfUtcDay(new Date()));
			if (today >= deps.limits.dailyLimitPerUser) {
				throw new AppError(
					"QUOTA_EXCEEDED",
					`You have reached today's limit of ${deps.limits.dailyLimitPerUser} generations. Please try again tomorrow.`,
				);
			}
		}
		const now = new Date();
		await insertGeneration(transaction, {
			id,
			user_id: viewer.id,
			prompt: input.prompt,
			aspect_ratio: input.aspectRatio,
			status: "queued",
			provider: deps.provider.name,
			api_id: null,
			polling_url: pollingUrl,
			error: null,
			lease_owner: null,
			lease_until: null,
			created_at: now,
			updated_at: now,
			started_at: null,
			completed_at: null,
		});
		await deps.queue.enqueue(id, createTransactionExecutor(transaction));
	});
	// The job is visible now that the transaction has committed: start it without waiting for a poll.
	deps.queue.wake();
	return { id, pollingUrl };
}

/** The generation if the viewer may see it (owner or admin); anyone else learns nothing. */
export async function getGeneration(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	id: string,
): Promise<GenerationRow> {
	const row = await findGenerationById(deps.database.db, id);
	if (!row || (row.user_id !== viewer.id && !viewer.isAdmin)) throw new AppError("NOT_FOUND");
	return row;
}

export function presentPoll(row: GenerationRow): PollResponse {
	return {
		status: row.status,
		results: row.images.map((image) => imageUrl(image.key)),
		message:
			row.status === "failed" ? (row.error ?? GENERATION_MESSAGES.failed) : row.status_message,
	};
}

/** Answers a poll at once when the generation is finished, else when it changes or `waitMs` passes. */
export async function pollGeneration(
	deps: Pick<GenerationDeps, "database" | "events">,
	viewer: Viewer,
	id: string,
	waitMs: number,
	signal?: AbortSignal,
): Promise<PollResponse> {
	const row = await getGeneration(deps, viewer, id);
	if (row.status === "completed" || row.status === "failed" || waitMs <= 0) return presentPoll(row);
	const changed = deps.events.waitForChange(id, waitMs, signal);
	// Read again after subscribing, so a change between the two reads is not missed.
	const current = await getGeneration(deps, viewer, id);
	if (
		current.status !== row.status ||
		current.api_id !== row.api_id ||
		current.status_message !== row.status_message
	) {
		return presentPoll(current);
	}
	await changed;
	return presentPoll(await getGeneration(deps, viewer, id));
}

export function encodeCursor(cursor: HistoryCursor): string {
	return Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}`).toString("base64url");
}

export function decodeCursor(value: string): HistoryCursor {
	const [createdAt, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
	const date = new Date(createdAt ?? "");
	if (!id || Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) {
		throw new AppError("VALIDATION_ERROR", "Invalid cursor.");
	}
	return { createdAt: date, id };
}

export type HistoryQuery = {
	cursor?: string | undefined;
	limit: number;
	todayStart: Date;
	search?: string | undefined;
	aspectRatio?: AspectRatio | undefined;
	isFavoritesOnly?: boolean;
	/** The administrator's filter by person; anyone else passing it is refused. */
	ownerEmail?: string | undefined;
};

const EMPTY_PAGE: GenerationPage = { items: [], nextCursor: null, total: 0, today: 0 };

/**
 * The viewer's history (the admin's: everyone's, or one person's), newest first, one cursor page
 * at a time; the counts are of what the search and filters match. A cursor continues the query
 * that gave it.
 */
export async function listGenerations(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	query: HistoryQuery,
): Promise<GenerationPage> {
	const db = deps.database.db;
	let userId: string | undefined = viewer.isAdmin ? undefined : viewer.id;
	if (query.ownerEmail !== undefined) {
		if (!viewer.isAdmin) {
			throw new AppError("VALIDATION_ERROR", "Only the administrator can filter by person.");
		}
		userId = await findUserIdByEmail(db, query.ownerEmail);
		if (userId === undefined) return EMPTY_PAGE;
	}
	const filters: HistoryFilters = {
		userId,
		search: query.search || undefined,
		aspectRatio: query.aspectRatio,
		isFavoritesOnly: query.isFavoritesOnly ?? false,
	};
	const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
	const [rows, counts] = await Promise.all([
		selectGenerationPage(db, {
			filters,
			cursor,
			limit: query.limit + 1,
			isOwnerShown: viewer.isAdmin,
		}),
		countHistory(db, { filters, todayStart: query.todayStart }),
	]);
	const page = rows.slice(0, query.limit);
	const last = page.at(-1);
	return {
		items: page.map(presentGeneration),
		nextCursor:
			rows.length > query.limit && last
				? encodeCursor({ createdAt: last.created_at, id: last.id })
				: null,
		total: counts.total,
		today: counts.today,
	};
}

/** Stops the provider's job of a generation that is no longer wanted, where the provider can. */
export async function cancelProviderJob(
	deps: Pick<GenerationDeps, "provider" | "imagesPerGeneration">,
	row: GenerationRow,
): Promise<void> {
	if (!row.api_id || !deps.provider.cancel) return;
	await deps.provider.cancel({
		jobId: row.api_id,
		input: { prompt: row.prompt, aspectRatio: row.aspect_ratio, count: deps.imagesPerGeneration },
	});
}

/** Ids as the client sent them: any that is not an id of ours is an unknown one. */
export function parseGenerationIds(ids: readonly string[]): string[] {
	if (!ids.every((id) => GenerationIdSchema.safeParse(id).success)) {
		throw new AppError("NOT_FOUND");
	}
	return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/**
 * Deletes generations, all or none: every id must be one the viewer may delete (the owner's; the
 * administrator: any), else NOT_FOUND and nothing changes. In the same transaction, each deletion
 * of another person's generation by the administrator is written to the audit log. After the
 * commit, the stored images go and the provider's job of a running generation is cancelled; its
 * run notices that it lost the generation and stops.
 */
export async function deleteGenerations(
	deps: GenerationDeps,
	viewer: Viewer,
	ids: readonly string[],
): Promise<number> {
	const wanted = parseGenerationIds(ids);
	const deleted = await deps.database.db.transaction().execute(async (transaction) => {
		const rows = await deleteGenerationRows(transaction, {
			ids: wanted,
			userId: viewer.isAdmin ? undefined : viewer.id,
		});
		// Throwing rolls the transaction back: nothing is deleted.
		if (rows.length !== wanted.length) throw new AppError("NOT_FOUND");
		await insertDeletionEntries(
			transaction,
			viewer,
			rows
				.filter((row) => row.user_id !== viewer.id)
				.map((row) => ({
					generationId: row.id,
					prompt: row.prompt,
					ownerId: row.user_id,
					ownerEmail: row.owner_email,
				})),
		);
		await notifyGenerationsChanged(transaction, wanted);
		return rows;
	});
	for (const row of deleted) {
		try {
			await deps.storage.deletePrefix(generationFolder(row.id));
		} catch (error) {
			// The rows are gone; files left behind cost space, not correctness.
			deps.logger.warn("stored images of a deleted generation were not removed", {
				generationId: row.id,
				error,
			});
		}
		if (ACTIVE_GENERATION_STATUSES.includes(row.status)) {
			await cancelProviderJob(deps, row).catch(() => {});
		}
	}
	return deleted.length;
}

/** Deletes one generation, like `deleteGenerations`. */
export async function deleteGeneration(
	deps: GenerationDeps,
	viewer: Viewer,
	id: string,
): Promise<void> {
	await deleteGenerations(deps, viewer, [id]);
}

/** Stars or unstars one of the viewer's own generations (the administrator's too: only their own). */
export async function setFavorite(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	id: string,
	favorite: boolean,
): Promise<boolean> {
	const row = await deps.database.db
		.updateTable("generations")
		.set({ is_favorite: favorite })
		.where("id", "=", id)
		.where("user_id", "=", viewer.id)
		.returning("is_favorite")
		.executeTakeFirst();
	if (!row) throw new AppError("NOT_FOUND");
	return row.is_favorite;
}

/** The administrator's audit log, newest first; anyone else learns nothing. */
export async function listAuditLog(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	query: { cursor?: string | undefined; limit: number },
): Promise<AuditLogPage> {
	if (!viewer.isAdmin) throw new AppError("NOT_FOUND");
	const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
	const rows = await selectAuditLogPage(deps.database.db, { cursor, limit: query.limit + 1 });
	const page = rows.slice(0, query.limit);
	const last = page.at(-1);
	return {
		items: page.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
		nextCursor:
			rows.length > query.limit && last
				? encodeCursor({ createdAt: last.created_at, id: last.id })
				: null,
	};
}
