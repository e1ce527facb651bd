import { serverShareSignIn, serverShareTakenDown } from "../../shared/i18n/messages";
import type { BoardWithOwner } from "../boards/boards-repository";
import type { StoredImage } from "../db/schema";
import { AppError } from "../errors/app-error";
import { findGenerationOutOfTrash } from "../generations/generation-repository";
import type { Viewer } from "../person/viewer";
import { findSharedBoard } from "./board-shares";
import type { ShareDeps } from "./create-share";
import { sharedImagesOf, shareState } from "./create-share";
import { findShareByTokenHash, type ShareWithPrompt } from "./share-repository";
import { hashShareToken, isShareTokenShape } from "./share-tokens";

/** A live link and what it shows: a generation (its images, or the one it names), or a board. */
export type LiveShareTarget =
	| {
			kind: "generation";
			share: ShareWithPrompt;
			generation: NonNullable<Awaited<ReturnType<typeof findGenerationOutOfTrash>>>;
			images: StoredImage[];
	  }
	| { kind: "board"; share: ShareWithPrompt; board: BoardWithOwner };

/**
 * The one check every request through a link passes, page, JSON and files alike: sharing is on
 * (404 when off), the visitor is signed in where links are for signed-in people (401), the token
 * is known (404), not hidden (451), not revoked nor expired (410), and what it shows is still
 * there and out of the Trash (410 once it is gone): moving a generation to the Trash revokes its
 * links (server.ts's onDeleted), and this read is the second lock on that door. A board's link
 * reads its board through the boards repository (410 once it is deleted); what is on the board
 * is read page by page (board-shares.ts), never including what is in the Trash.
 */
export async function findLiveShareTarget(
	deps: ShareDeps,
	token: string,
	viewer: Viewer | undefined,
): Promise<LiveShareTarget> {
	const { mode } = deps.settings;
	if (mode === "off") throw new AppError("NOT_FOUND");
	if (mode === "signed-in" && !viewer) {
		throw new AppError("AUTH_ERROR", serverShareSignIn);
	}
	if (!isShareTokenShape(token)) throw new AppError("NOT_FOUND");
	const share = await findShareByTokenHash(deps.database.db, hashShareToken(token));
	if (!share) throw new AppError("NOT_FOUND");
	const state = shareState(share);
	if (state === "hidden") {
		throw new AppError("SHARE_HIDDEN", serverShareTakenDown);
	}
	if (state !== "live") throw new AppError("SHARE_ENDED");
	if (share.generation_id === null) {
		const board = await findSharedBoard(deps.database.db, share);
		if (!board) throw new AppError("SHARE_ENDED");
		return { kind: "board", share, board };
	}
	const generation = await findGenerationOutOfTrash(deps.database.db, share.generation_id);
	if (!generation) throw new AppError("SHARE_ENDED");
	const images = sharedImagesOf(generation, share.image_index);
	if (images.length === 0) throw new AppError("SHARE_ENDED");
	return { kind: "generation", share, generation, images };
}
