import { type SharedPage, sharedPagePath } from "../../shared/sharing";
import { AppError } from "../errors/app-error";
import { withRecipe } from "../generations/files/generation-recipe";
import { settingsOf } from "../generations/generation-input";
import { stripImageMetadata } from "../images/strip-metadata";
import type { Viewer } from "../person/viewer";
import type { ShareDeps } from "./create-share";
import { findLiveShareTarget, type LiveShareTarget } from "./find-live-share-target";
import { countShareView } from "./share-repository";

/** The variants of an image a link serves: the display copy always, the original where allowed. */
export const SHARED_IMAGE_VARIANTS = ["display", "original"] as const;
export type SharedImageVariant = (typeof SHARED_IMAGE_VARIANTS)[number];

/** An image's address under its link: `/s/<token>/images/<n>/<variant>`. */
export function sharedImagePath(token: string, index: number, variant: SharedImageVariant): string {
	return `${sharedPagePath(token)}/images/${index}/${variant}`;
}

/** What a link shows, as `GET /api/s/<token>` answers it and the shared page renders it. */
export function presentSharedPage(token: string, target: LiveShareTarget): SharedPage {
	const { share, generation, images } = target;
	const settings = settingsOf(generation);
	return {
		images: images.map((image, index) => ({
			url: sharedImagePath(token, index, "display"),
			width: image.displayWidth ?? image.width,
			height: image.displayHeight ?? image.height,
			originalUrl: share.originals ? sharedImagePath(token, index, "original") : null,
		})),
		prompt: share.show_prompt ? generation.prompt : null,
		settings: share.show_prompt
			? {
					model: generation.model_label,
					aspectRatio: generation.aspect_ratio,
					seed: settings.seed,
					negativePrompt: settings.negativePrompt,
				}
			: null,
		createdAt: generation.created_at.toISOString(),
		expiresAt: share.expires_at?.toISOString() ?? null,
		reportUrl: `/api${sharedPagePath(token)}/report`,
	};
}

/**
 * A view of a shared page (its HTML or its JSON): the link checked, and one UPDATE counting the
 * view; the images it then loads are not counted.
 */
export async function viewSharedPage(
	deps: ShareDeps,
	token: string,
	viewer: Viewer | undefined,
): Promise<SharedPage> {
	const target = await findLiveShareTarget(deps, token, viewer);
	await countShareView(deps.database.db, target.share.id);
	return presentSharedPage(token, target);
}

/**
 * One image through a link. The display copy is a WebP sharp wrote without metadata. The
 * original, where the link allows it, carries the recipe when the link shows the prompt, as a
 * download does; when it hides it, the original is written again without any metadata, so
 * nothing in the file tells the prompt. A row stored before display copies has its original
 * stand in, treated the same way.
 */
export async function readSharedImage(
	deps: ShareDeps,
	token: string,
	viewer: Viewer | undefined,
	index: number,
	variant: SharedImageVariant,
): Promise<{ data: Uint8Array; contentType: string }> {
	const { share, generation, images } = await findLiveShareTarget(deps, token, viewer);
	const image = images[index];
	if (!image) throw new AppError("NOT_FOUND");
	if (variant === "original" && !share.originals) throw new AppError("NOT_FOUND");
	const isOriginal = variant === "original" || image.displayKey === undefined;
	const key = isOriginal ? image.key : (image.displayKey ?? image.key);
	const object = await deps.storage.get(key);
	if (!object) throw new AppError("SHARE_ENDED");
	const data = new Uint8Array(object.data);
	if (!isOriginal) return { data, contentType: object.contentType };
	if (share.show_prompt) {
		return { data: withRecipe(data, generation, image), contentType: object.contentType };
	}
	const stripped = await stripImageMetadata(data);
	if (!stripped) throw new AppError("NOT_FOUND");
	return stripped;
}
