import { type SharedPage, sharedPagePath } from "../../shared/history/sharing";
import type { StoredImage } from "../db/schema";
import { AppError } from "../errors/app-error";
import { withRecipe } from "../generations/files/generation-recipe";
import { settingsOf } from "../generations/generation-input";
import { stripImageMetadata } from "../images/strip-metadata";
import type { Viewer } from "../person/viewer";
import {
	type BoardPagePosition,
	findSharedBoardGeneration,
	readSharedBoardPage,
	type SharedBoardPage,
} from "./board-shares";
import type { ShareDeps } from "./create-share";
import { findLiveShareTarget, type LiveShareTarget } from "./find-live-share-target";
import { countShareView } from "./share-repository";

/** The variants of an image a link serves: the display copy always, the original where allowed. */
export const SHARED_IMAGE_VARIANTS = ["display", "original"] as const;
export type SharedImageVariant = (typeof SHARED_IMAGE_VARIANTS)[number];

/**
 * An image's address under its link: `/s/<token>/images/<n>/<variant>` for a generation's link,
 * `/s/<token>/generations/<id>/images/<n>/<variant>` for one of a board's generations.
 */
export function sharedImagePath(
	token: string,
	index: number,
	variant: SharedImageVariant,
	generationId?: string,
): string {
	const generation = generationId === undefined ? "" : `/generations/${generationId}`;
	return `${sharedPagePath(token)}${generation}/images/${index}/${variant}`;
}

type ImageLink = { token: string; originals: boolean; generationId?: string };

function presentSharedImage(
	link: ImageLink,
	image: StoredImage,
	index: number,
	prompt: string | null,
) {
	const { token, generationId } = link;
	return {
		url: sharedImagePath(token, index, "display", generationId),
		width: image.displayWidth ?? image.width,
		height: image.displayHeight ?? image.height,
		originalUrl: link.originals ? sharedImagePath(token, index, "original", generationId) : null,
		prompt,
	};
}

/** A board's page through its link: each generation's images in turn, prompts only where shown. */
function presentSharedBoardPage(
	token: string,
	target: Extract<LiveShareTarget, { kind: "board" }>,
	page: SharedBoardPage,
): SharedPage {
	const { share, board } = target;
	return {
		images: page.generations.flatMap((generation) =>
			generation.images.map((image, index) =>
				presentSharedImage(
					{ token, originals: share.originals, generationId: generation.id },
					image,
					index,
					share.show_prompt ? generation.prompt : null,
				),
			),
		),
		prompt: null,
		settings: null,
		createdAt: board.created_at.toISOString(),
		expiresAt: share.expires_at?.toISOString() ?? null,
		reportUrl: `/api${sharedPagePath(token)}/report`,
		board: { name: board.name, olderCursor: page.olderCursor, newerCursor: page.newerCursor },
	};
}

/** What a link shows, as `GET /api/s/<token>` answers it and the shared page renders it. */
export function presentSharedPage(
	token: string,
	target: Extract<LiveShareTarget, { kind: "generation" }>,
): SharedPage {
	const { share, generation, images } = target;
	const settings = settingsOf(generation);
	const prompt = share.show_prompt ? generation.prompt : null;
	return {
		images: images.map((image, index) =>
			presentSharedImage({ token, originals: share.originals }, image, index, prompt),
		),
		prompt,
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
		board: null,
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
	position: BoardPagePosition = {},
): Promise<SharedPage> {
	const target = await findLiveShareTarget(deps, token, viewer);
	if (target.kind === "generation") {
		await countShareView(deps.database.db, target.share.id);
		return presentSharedPage(token, target);
	}
	// A page that cannot be read (a cursor we did not make) is no view.
	const page = await readSharedBoardPage(
		deps.database.db,
		target.board,
		position,
		deps.promptBlocklist,
	);
	await countShareView(deps.database.db, target.share.id);
	return presentSharedBoardPage(token, target, page);
}

/** The generation and images a file under a link comes from: the board's only while it shows it. */
async function findSharedImages(target: LiveShareTarget, deps: ShareDeps, generationId?: string) {
	if (target.kind === "generation") {
		if (generationId !== undefined) throw new AppError("NOT_FOUND");
		return target;
	}
	if (generationId === undefined) throw new AppError("NOT_FOUND");
	const generation = await findSharedBoardGeneration(
		deps.database.db,
		target.board,
		generationId,
		deps.promptBlocklist,
	);
	if (!generation) throw new AppError("NOT_FOUND");
	return { share: target.share, generation, images: generation.images };
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
	generationId?: string,
): Promise<{ data: Uint8Array; contentType: string }> {
	const target = await findLiveShareTarget(deps, token, viewer);
	const { share, generation, images } = await findSharedImages(target, deps, generationId);
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
