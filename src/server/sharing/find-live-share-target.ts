import type { StoredImage } from "../db/schema";
import { AppError } from "../errors/app-error";
import { findGenerationOutOfTrash } from "../generations/generation-repository";
import type { Viewer } from "../person/viewer";
import type { ShareDeps } from "./create-share";
import { sharedImagesOf, shareState } from "./create-share";
import { findShareByTokenHash, type ShareWithPrompt } from "./share-repository";
import { hashShareToken, isShareTokenShape } from "./share-tokens";

export type LiveShareTarget = {
	share: ShareWithPrompt;
	generation: NonNullable<Awaited<ReturnType<typeof findGenerationOutOfTrash>>>;
	images: StoredImage[];
};

/**
 * The one check every request through a link passes, page, JSON and files alike: sharing is on
 * (404 when off), the visitor is signed in where links are for signed-in people (401), the token
 * is known (404), not hidden (451), not revoked nor expired (410), and what it shows is still
 * there and out of the Trash (410 once it is gone): moving a generation to the Trash revokes its
 * links (server.ts's onDeleted), and this read is the second lock on that door.
 */
export async function findLiveShareTarget(
	deps: ShareDeps,
	token: string,
	viewer: Viewer | undefined,
): Promise<LiveShareTarget> {
	const { mode } = deps.settings;
	if (mode === "off") throw new AppError("NOT_FOUND");
	if (mode === "signed-in" && !viewer) {
		throw new AppError("AUTH_ERROR", "Sign in to this server to see this link.");
	}
	if (!isShareTokenShape(token)) throw new AppError("NOT_FOUND");
	const share = await findShareByTokenHash(deps.database.db, hashShareToken(token));
	if (!share) throw new AppError("NOT_FOUND");
	const state = shareState(share);
	if (state === "hidden") {
		throw new AppError("SHARE_HIDDEN", "This link was taken down by the administrator.");
	}
	if (state !== "live" || share.generation_id === null) throw new AppError("SHARE_ENDED");
	const generation = await findGenerationOutOfTrash(deps.database.db, share.generation_id);
	if (!generation) throw new AppError("SHARE_ENDED");
	const images = sharedImagesOf(generation, share.image_index);
	if (images.length === 0) throw new AppError("SHARE_ENDED");
	return { share, generation, images };
}
