import type { GenerationFamily } from "../../../shared/generations/generation-responses";
import { isOnSharedBoard } from "../../boards/boards-repository";
import type { GenerationRow } from "../../db/schema";
import { AppError } from "../../errors/app-error";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps } from "../generation-deps";
import {
	findGenerationById,
	findPresentableGeneration,
	type PresentableGeneration,
	selectChildren,
} from "../generation-repository";
import { findQueuePositions } from "../run/queue-order";
import { presentGeneration } from "./generation-presenter";

/**
 * The generation if the viewer may see it (owner or admin); anyone else learns nothing. One in the
 * Trash is gone (polls, downloads, families) unless `isTrashShown`: its image files, which the
 * Trash page shows to its owner and to the administrator.
 */
export async function getGeneration(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	id: string,
	options: { isTrashShown?: boolean } = {},
): Promise<GenerationRow> {
	const row = await findGenerationById(deps.database.db, id);
	if (!row || (row.user_id !== viewer.id && !viewer.isAdmin)) throw new AppError("NOT_FOUND");
	if (row.deleted_at !== null && !options.isTrashShown) throw new AppError("NOT_FOUND");
	return row;
}

/**
 * The generation if the viewer may see its images: its owner and the administrator, and anyone
 * signed in while it is on a board its owner shares (decision 032) and not in the Trash. Only its
 * images: everything else about it (its family, its poll, its changes) stays its owner's. One in the
 * Trash keeps its images readable to its owner and the administrator, for the Trash page.
 */
export async function getGenerationForImages(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	id: string,
): Promise<GenerationRow> {
	const row = await findGenerationById(deps.database.db, id);
	if (!row) throw new AppError("NOT_FOUND");
	if (row.user_id === viewer.id || viewer.isAdmin) return row;
	if (row.deleted_at === null && (await isOnSharedBoard(deps.database.db, id))) return row;
	throw new AppError("NOT_FOUND");
}

/**
 * The generation as the API shows it (with its family), if the viewer may see it. One in the Trash
 * only its owner sees, with its `deletedAt`; to anyone else, the administrator too, it is 404.
 */
export async function getPresentableGeneration(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	id: string,
): Promise<PresentableGeneration> {
	const row = await findPresentableGeneration(deps.database.db, id, { isOwnerShown: false });
	if (!row || (row.user_id !== viewer.id && !viewer.isAdmin)) throw new AppError("NOT_FOUND");
	if (row.deleted_at !== null && row.user_id !== viewer.id) throw new AppError("NOT_FOUND");
	return row;
}

/** The most children `GET /api/generations/:id/family` lists. */
export const FAMILY_CHILDREN_LIMIT = 50;

/**
 * `GET /api/generations/:id/family`, for its owner or the administrator: the generation it was
 * made from (null when made from a prompt or an upload, or when that one was deleted) and those
 * made from it, newest first, at most 50, each as the history shows it. With `imageIndex`, only
 * those made from that image ("Made from this" under the image a preview shows); an index the
 * generation has no image at is refused, naming the field.
 */
export async function getGenerationFamily(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	id: string,
	options: { imageIndex?: number | undefined } = {},
): Promise<GenerationFamily> {
	const generation = await getGeneration(deps, viewer, id);
	const { imageIndex } = options;
	const imageCount = generation.images.length;
	if (imageIndex !== undefined && imageIndex >= imageCount) {
		throw new AppError(
			"VALIDATION_ERROR",
			imageCount === 0
				? "imageIndex names no image: this generation has none"
				: `imageIndex must be from 0 to ${imageCount - 1} for this generation`,
		);
	}
	const db = deps.database.db;
	const isOwnerShown = viewer.isAdmin;
	const [parent, children] = await Promise.all([
		generation.parent_generation_id === null
			? undefined
			: findPresentableGeneration(db, generation.parent_generation_id, { isOwnerShown }),
		selectChildren(db, {
			parentId: generation.id,
			imageIndex,
			userId: generation.user_id,
			limit: FAMILY_CHILDREN_LIMIT,
			isOwnerShown,
		}),
	]);
	// "As the history shows it": a queued one with its place in the queue, one look-up for all. A
	// parent in the Trash is not shown; the generation's own `parent.inTrash` says where it is.
	const shown =
		parent && parent.user_id === generation.user_id && parent.deleted_at === null
			? parent
			: undefined;
	const positions = await findQueuePositions(db, shown ? [shown, ...children] : children);
	const present = (row: PresentableGeneration) =>
		presentGeneration(row, positions.get(row.id) ?? null);
	return { parent: shown ? present(shown) : null, children: children.map(present) };
}
