import { APP_PATHS } from "../core/app-routes";

/**
 * A batch: the generations one submission starts together, the variations of one prompt
 * (prompt-variations.ts) or one prompt on several models side by side, or both.
 */

/** How many models one comparison takes. */
export const MIN_COMPARED_MODELS = 2;
export const MAX_COMPARED_MODELS = 4;

/** The query that narrows a history's page (the history's, or a board's) to one batch. */
export function batchSearch(batchId: string): string {
	return `?batch=${encodeURIComponent(batchId)}`;
}

/** The history's address of one batch (`GET /api/generations?batch=`'s screen). */
export function batchHistoryPath(batchId: string): string {
	return `${APP_PATHS.generations}${batchSearch(batchId)}`;
}
