import { AppError } from "../../errors/app-error";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps } from "../generation-deps";
import { updateFavorite } from "../generation-repository";

/** Stars or unstars one of the viewer's own generations (the administrator's too: only their own). */
export async function setFavorite(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	id: string,
	favorite: boolean,
): Promise<boolean> {
	const isFavorite = await updateFavorite(deps.database.db, { id, userId: viewer.id, favorite });
	if (isFavorite === undefined) throw new AppError("NOT_FOUND");
	return isFavorite;
}
