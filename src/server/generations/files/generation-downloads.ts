import { imageDownloadName, slugifyPrompt } from "../../../shared/history/download-names";
import { findViewableBoard } from "../../boards/board-access";
import { historyFiltersOf } from "../../boards/board-filters";
import type { GenerationRow } from "../../db/schema";
import { AppError } from "../../errors/app-error";
import type { Viewer } from "../../person/viewer";
import type { StoredObject } from "../../storage/storage";
import type { GenerationDeps } from "../generation-deps";
import { selectGenerationsByIds } from "../generation-repository";
import { selectHistoryPage } from "../history-repository";
import { parseGenerationIds } from "../request/delete-generations";
import { getGeneration, getGenerationForImages } from "../request/get-generation";
import { type ArchiveLayout, createGenerationArchive, imageExtension } from "./generation-archive";
import { withRecipe } from "./generation-recipe";

/** `Content-Disposition` for a download, with the RFC 5987 form beside the plain one. */
export function attachmentDisposition(fileName: string): string {
	const plain = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
	return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function imageFile(row: GenerationRow, index: number, extension: string): string {
	return imageDownloadName(row.prompt, index, extension);
}

/**
 * One generation's ZIP: its images at the root, named from the prompt, each with its recipe as a
 * downloaded original has, and `generation.json`.
 */
const GENERATION_LAYOUT: ArchiveLayout = {
	folderNames: (rows) => rows.map(() => ""),
	metadataFile: "generation.json",
	imageFile,
	writesRecipes: true,
};

/** Names made unique by a counter: `a`, `a-2`, `a-3`. */
function numberDuplicates(names: readonly string[]): string[] {
	const used = new Set<string>();
	return names.map((name) => {
		let candidate = name;
		for (let number = 2; used.has(candidate); number++) candidate = `${name}-${number}`;
		used.add(candidate);
		return candidate;
	});
}

/** Several generations' ZIP: one folder each, `<day>-<prompt slug>`, laid out like GENERATION_LAYOUT. */
const SELECTION_LAYOUT: ArchiveLayout = {
	folderNames: (rows) =>
		numberDuplicates(
			rows.map(
				(row) => `${row.created_at.toISOString().slice(0, 10)}-${slugifyPrompt(row.prompt)}`,
			),
		),
	metadataFile: "generation.json",
	imageFile,
	writesRecipes: true,
};

export type Download = { body: ReadableStream<Uint8Array>; fileName: string };

/**
 * One original image of a generation the viewer may see, with its recipe written in (what the
 * screens show, display copies and thumbnails, is served as stored), and its download name.
 */
export async function downloadGenerationImage(
	deps: Pick<GenerationDeps, "database" | "storage">,
	viewer: Viewer,
	id: string,
	index: number,
): Promise<{ object: StoredObject; fileName: string }> {
	const row = await getGenerationForImages(deps, viewer, id);
	const image = row.images[index];
	if (!image) throw new AppError("NOT_FOUND");
	const object = await deps.storage.get(image.key);
	if (!object) throw new AppError("NOT_FOUND");
	return {
		object: { ...object, data: withRecipe(object.data, row, image) },
		fileName: imageDownloadName(row.prompt, index, imageExtension(image)),
	};
}

/** One generation as a streamed ZIP named from its prompt. */
export async function archiveGeneration(
	deps: Pick<GenerationDeps, "database" | "storage">,
	viewer: Viewer,
	id: string,
): Promise<Download> {
	const row = await getGeneration(deps, viewer, id);
	return {
		body: createGenerationArchive({
			generations: [row],
			storage: deps.storage,
			layout: GENERATION_LAYOUT,
		}),
		fileName: `${slugifyPrompt(row.prompt)}.zip`,
	};
}

/**
 * Several generations as one streamed ZIP, newest first. Every id must be one the viewer may see
 * (the administrator: any that exists); otherwise nothing is sent but NOT_FOUND.
 */
export async function archiveGenerations(
	deps: Pick<GenerationDeps, "database" | "storage">,
	viewer: Viewer,
	ids: readonly string[],
): Promise<Download> {
	const wanted = parseGenerationIds(ids);
	const rows = await selectGenerationsByIds(deps.database.db, {
		ids: wanted,
		userId: viewer.isAdmin ? undefined : viewer.id,
	});
	if (rows.length !== wanted.length) throw new AppError("NOT_FOUND");
	return {
		body: createGenerationArchive({
			generations: rows,
			storage: deps.storage,
			layout: SELECTION_LAYOUT,
		}),
		fileName: `atelier-${rows.length}-generations.zip`,
	};
}

/** The most generations one board's ZIP holds: its newest. */
export const MAX_BOARD_ARCHIVE_GENERATIONS = 10_000;

/**
 * A board's ZIP, for whoever may see the board: what its page shows (a smart board: what its
 * search matches, its days in `timeZone`), newest first, laid out as a selection's ZIP.
 */
export async function archiveBoard(
	deps: Pick<GenerationDeps, "database" | "storage">,
	viewer: Viewer,
	boardId: string,
	timeZone = "UTC",
): Promise<Download> {
	const db = deps.database.db;
	const board = await findViewableBoard(db, viewer, boardId);
	const rows = await selectHistoryPage(db, {
		filters: historyFiltersOf(board, timeZone),
		cursor: undefined,
		limit: MAX_BOARD_ARCHIVE_GENERATIONS,
		isOwnerShown: false,
	});
	return {
		body: createGenerationArchive({
			generations: rows,
			storage: deps.storage,
			layout: SELECTION_LAYOUT,
		}),
		fileName: `${slugifyPrompt(board.name)}.zip`,
	};
}
