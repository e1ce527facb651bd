import {
	type CreatedShare,
	type CreateShareRequest,
	SHARE_EXPIRY_MS,
	type Share,
	type ShareExpiry,
	sharedPagePath,
} from "../../shared/history/sharing";
import {
	serverPromptBlocked,
	serverShareBoardUnchecked,
	serverShareCheckFlagged,
	serverShareCheckUnavailable,
	serverShareEndedMakeNew,
	serverShareImageIndex,
	serverShareLiveLimit,
	serverShareMaxDays,
	serverShareOnlyFinished,
	serverShareRotateExpired,
	serverShareRotateHidden,
	serverShareRotateRevoked,
} from "../../shared/i18n/messages";
import type { Database } from "../db/database";
import type { GenerationRow } from "../db/schema";
import { AppError, type LocalizedMessage } from "../errors/app-error";
import { findGenerationOutOfTrash } from "../generations/generation-repository";
import type { Logger } from "../logging/logger";
import type { Viewer } from "../person/viewer";
import type { Storage } from "../storage/storage";
import { findShareableBoard, findSharedBoard } from "./board-shares";
import {
	countLiveSharesOfUser,
	findShareById,
	insertShare,
	markShareRevoked,
	type ShareWithPrompt,
	selectSharesOfUser,
} from "./share-repository";
import type { SharingDeps } from "./share-settings";
import { MAX_LIVE_SHARES } from "./share-settings";
import { hashShareToken, makeShareToken } from "./share-tokens";

export type ShareDeps = SharingDeps & {
	database: Database;
	storage: Storage;
	logger: Logger;
	/** The server's public origin, for the links' absolute addresses. */
	baseUrl: string;
};

/** Where a link stands now. */
export function shareState(row: ShareWithPrompt, now = new Date()): Share["state"] {
	if (row.hidden_at) return "hidden";
	if (row.revoked_at) return "revoked";
	if (row.expires_at && row.expires_at <= now) return "expired";
	// What it showed was deleted: a generation, or a board.
	if (row.generation_id === null && row.board_id === null) return "revoked";
	return "live";
}

/** A link as its owner sees it. */
export function presentShare(row: ShareWithPrompt): Share {
	return {
		id: row.id,
		target: {
			generationId: row.generation_id,
			imageIndex: row.image_index,
			boardId: row.board_id,
		},
		prompt: row.prompt,
		boardName: row.board_name,
		originals: row.originals,
		showPrompt: row.show_prompt,
		state: shareState(row),
		createdAt: row.created_at.toISOString(),
		expiresAt: row.expires_at?.toISOString() ?? null,
		views: row.views,
		lastViewedAt: row.last_viewed_at?.toISOString() ?? null,
	};
}

/** When a link made now ends; an expiry beyond SHARE_MAX_DAYS (or `never` under one) is refused. */
function resolveExpiry(deps: SharingDeps, expires: ShareExpiry): Date | null {
	const { maxDays } = deps.settings;
	if (expires === "never") {
		if (maxDays !== undefined) {
			throw new AppError("VALIDATION_ERROR", (options) =>
				serverShareMaxDays({ count: maxDays }, options),
			);
		}
		return null;
	}
	const milliseconds = SHARE_EXPIRY_MS[expires];
	if (maxDays !== undefined && milliseconds > maxDays * 86_400_000) {
		throw new AppError("VALIDATION_ERROR", (options) =>
			serverShareMaxDays({ count: maxDays }, options),
		);
	}
	return new Date(Date.now() + milliseconds);
}

/** The images a link shows: all of the generation's, or the one it names. */
export function sharedImagesOf(generation: GenerationRow, imageIndex: number | null) {
	if (imageIndex === null) return generation.images;
	const image = generation.images[imageIndex];
	return image ? [image] : [];
}

/**
 * Checks a public link's images with the moderation service, when one is configured: flagged
 * images are refused (422), and a service that cannot answer refuses too, since nothing unchecked
 * goes public. Links for signed-in people only are not checked.
 */
async function moderateImages(
	deps: ShareDeps,
	generation: GenerationRow,
	imageIndex: number | null,
) {
	const { checkImages, mode } = deps.settings;
	if (!checkImages || mode !== "public") return;
	const images = [];
	for (const image of sharedImagesOf(generation, imageIndex)) {
		// The display copy: what the page shows, and small enough to send.
		const object = await deps.storage.get(image.displayKey ?? image.key);
		if (object) images.push({ data: object.data, contentType: object.contentType });
	}
	let verdict: { isFlagged: boolean };
	try {
		verdict = await checkImages(images);
	} catch (error) {
		deps.logger.warn("The moderation check failed; the link was not made", {
			generationId: generation.id,
			error: error instanceof Error ? error.message : String(error),
		});
		throw new AppError("SERVICE_UNAVAILABLE", serverShareCheckUnavailable);
	}
	if (verdict.isFlagged) {
		throw new AppError("SHARE_FLAGGED", serverShareCheckFlagged);
	}
}

function withAddress(deps: ShareDeps, row: ShareWithPrompt, token: string): CreatedShare {
	return { ...presentShare(row), token, url: `${deps.baseUrl}${sharedPagePath(token)}` };
}

async function insertLink(
	deps: ShareDeps,
	viewer: Viewer,
	fields: Omit<Parameters<typeof insertShare>[1], "tokenHash" | "userId">,
): Promise<CreatedShare> {
	const token = makeShareToken();
	const id = await insertShare(deps.database.db, {
		...fields,
		userId: viewer.id,
		tokenHash: hashShareToken(token),
	});
	const row = await findShareById(deps.database.db, id);
	if (!row) throw new AppError("NOT_FOUND");
	return withAddress(deps, row, token);
}

/** The viewer may hold one more live link. */
async function checkLiveShareCount(deps: ShareDeps, viewer: Viewer) {
	if ((await countLiveSharesOfUser(deps.database.db, viewer.id)) >= MAX_LIVE_SHARES) {
		throw new AppError("VALIDATION_ERROR", (options) =>
			serverShareLiveLimit({ limit: MAX_LIVE_SHARES }, options),
		);
	}
}

/**
 * A board's link: the viewer's own board only. Where public links have their images checked,
 * a board cannot be shared publicly: what is put on it later would go out unchecked.
 */
async function createBoardShare(
	deps: ShareDeps,
	viewer: Viewer,
	request: CreateShareRequest & { target: { boardId: string } },
): Promise<CreatedShare> {
	const board = await findShareableBoard(deps.database.db, viewer, request.target.boardId);
	const expiresAt = resolveExpiry(deps, request.expires);
	await checkLiveShareCount(deps, viewer);
	if (deps.settings.checkImages && deps.settings.mode === "public") {
		throw new AppError("VALIDATION_ERROR", serverShareBoardUnchecked);
	}
	return insertLink(deps, viewer, {
		generationId: null,
		imageIndex: null,
		boardId: board.id,
		expiresAt,
		originals: request.originals,
		showPrompt: request.showPrompt,
	});
}

/**
 * `POST /api/shares`: a new link to the viewer's own finished generation, one image of it, or
 * their own board, with a new random token (never one used before). A generation's prompt must
 * pass the blocklist and, for a public link, its images the moderation check.
 */
export async function createShare(
	deps: ShareDeps,
	viewer: Viewer,
	request: CreateShareRequest,
): Promise<CreatedShare> {
	if (deps.settings.mode === "off") throw new AppError("NOT_FOUND");
	const { target } = request;
	if ("boardId" in target) return createBoardShare(deps, viewer, { ...request, target });
	const { generationId, imageIndex } = target;
	const generation = await findGenerationOutOfTrash(deps.database.db, generationId);
	// Another person's generation is as unknown as one that does not exist, the administrator's too.
	if (!generation || generation.user_id !== viewer.id) throw new AppError("NOT_FOUND");
	if (generation.status !== "completed" || generation.images.length === 0) {
		throw new AppError("VALIDATION_ERROR", serverShareOnlyFinished);
	}
	if (imageIndex !== undefined && imageIndex >= generation.images.length) {
		const count = generation.images.length;
		throw new AppError("VALIDATION_ERROR", (options) => serverShareImageIndex({ count }, options));
	}
	if (deps.promptBlocklist?.isBlocked(generation.prompt)) {
		throw new AppError("PROMPT_BLOCKED", serverPromptBlocked);
	}
	const expiresAt = resolveExpiry(deps, request.expires);
	await checkLiveShareCount(deps, viewer);
	await moderateImages(deps, generation, imageIndex ?? null);
	return insertLink(deps, viewer, {
		generationId,
		imageIndex: imageIndex ?? null,
		boardId: null,
		expiresAt,
		originals: request.originals,
		showPrompt: request.showPrompt,
	});
}

/** One of the viewer's own links; anyone else's is unknown. */
async function findOwnShare(deps: ShareDeps, viewer: Viewer, id: string) {
	const row = await findShareById(deps.database.db, id);
	if (!row || row.user_id !== viewer.id) throw new AppError("NOT_FOUND");
	return row;
}

/** `GET /api/shares`: the viewer's links, newest first. */
export async function listShares(deps: ShareDeps, viewer: Viewer): Promise<Share[]> {
	const rows = await selectSharesOfUser(deps.database.db, viewer.id);
	return rows.map(presentShare);
}

/** `DELETE /api/shares/:id`: ends the link at once; revoking again changes nothing. */
export async function revokeShare(deps: ShareDeps, viewer: Viewer, id: string): Promise<Share> {
	const row = await findOwnShare(deps, viewer, id);
	await markShareRevoked(deps.database.db, row.id);
	const revoked = await findShareById(deps.database.db, row.id);
	if (!revoked) throw new AppError("NOT_FOUND");
	return presentShare(revoked);
}

/** Why a link that is no longer live cannot be renewed, by its state. */
const ROTATE_REFUSALS: Record<Exclude<Share["state"], "live">, LocalizedMessage> = {
	expired: serverShareRotateExpired,
	revoked: serverShareRotateRevoked,
	hidden: serverShareRotateHidden,
};

/**
 * `POST /api/shares/:id/rotate`: a new link with the same target, options and end, and the old
 * one revoked (its token answers 410). A hidden or ended link cannot be renewed this way.
 */
export async function rotateShare(
	deps: ShareDeps,
	viewer: Viewer,
	id: string,
): Promise<CreatedShare> {
	if (deps.settings.mode === "off") throw new AppError("NOT_FOUND");
	const row = await findOwnShare(deps, viewer, id);
	const state = shareState(row);
	if (state !== "live") {
		throw new AppError("VALIDATION_ERROR", ROTATE_REFUSALS[state]);
	}
	const created = row.board_id
		? await renewBoardShare(deps, viewer, row)
		: await renewGenerationShare(deps, viewer, row);
	await markShareRevoked(deps.database.db, row.id);
	return created;
}

async function renewGenerationShare(deps: ShareDeps, viewer: Viewer, row: ShareWithPrompt) {
	const generation = row.generation_id
		? await findGenerationOutOfTrash(deps.database.db, row.generation_id)
		: undefined;
	if (!generation) throw new AppError("VALIDATION_ERROR", serverShareEndedMakeNew);
	if (deps.promptBlocklist?.isBlocked(generation.prompt)) {
		throw new AppError("PROMPT_BLOCKED", serverPromptBlocked);
	}
	return insertLink(deps, viewer, {
		generationId: generation.id,
		imageIndex: row.image_index,
		boardId: null,
		expiresAt: row.expires_at,
		originals: row.originals,
		showPrompt: row.show_prompt,
	});
}

async function renewBoardShare(deps: ShareDeps, viewer: Viewer, row: ShareWithPrompt) {
	const board = await findSharedBoard(deps.database.db, row);
	if (!board) throw new AppError("VALIDATION_ERROR", serverShareEndedMakeNew);
	return insertLink(deps, viewer, {
		generationId: null,
		imageIndex: null,
		boardId: board.id,
		expiresAt: row.expires_at,
		originals: row.originals,
		showPrompt: row.show_prompt,
	});
}
