import {
	type InfiniteData,
	keepPreviousData,
	type QueryClient,
	useInfiniteQuery,
	useMutation,
	useQueryClient,
} from "@tanstack/react-query";
import { GENERATIONS_PAGE_SIZE } from "../../../../shared/core/page-sizes";
import type {
	Generation,
	GenerationPage,
} from "../../../../shared/generations/generation-responses";
import { formatGroupDate } from "../../../../shared/history/date-groups";
import {
	errorUnknownError,
	historyBulkDeleteFailed,
	historyDeleted,
	historyDeletedMany,
	historyDeleteFailed,
	historyFavouriteFailed,
	historyRerunStarted,
	historyRestoreFailed,
	historyUndo,
	imageUpscaleStarted,
	imageVaryStarted,
} from "../../../../shared/i18n/messages";
import { ApiError } from "../../../lib/api/api-client";
import { restoreGenerations, TRASH_QUERY_KEY } from "../../../lib/collections/trash-requests";
import {
	deleteGenerationById,
	deleteGenerationsByIds,
	FAMILY_QUERY_PREFIX,
	fetchGenerationsPage,
	type StartGenerationRequest,
	setGenerationFavorite,
	startGeneration,
} from "../../../lib/generations/generations-requests";
import {
	buildImageActionRequest,
	type ImmediateAction,
} from "../../../lib/generations/image-actions";
import { showToast, showUndoToast } from "../../../lib/ui/toast";
import { buildRerunRequest } from "../cards/generation-reuse";
import {
	createGenerationsListKey,
	markGenerationListsStale,
	reloadGenerationLists,
	removeGeneration,
	removeGenerations,
	setFavorite,
	updateGenerationLists,
} from "../filters/history-cache";
import type { HistoryFilters } from "../filters/history-filters";
import { describeOtherOwners } from "./delete-generation-dialog";

/**
 * Says a deletion succeeded: to the Trash, with **Undo** for ten seconds (which restores them and
 * reloads the lists), or for good as before.
 */
function announceDeletion(
	queryClient: QueryClient,
	message: string,
	ids: readonly string[],
	permanent: boolean,
	/** Whose they are, when not the viewer's: sent to their owner's Trash, no dialog said it. */
	ownerNote: string | null = null,
): void {
	void queryClient.invalidateQueries({ queryKey: TRASH_QUERY_KEY });
	if (permanent) {
		void showToast("success", message);
		return;
	}
	void showUndoToast(ownerNote ? `${message}. ${ownerNote}` : message, historyUndo(), () => {
		restoreGenerations(ids)
			.catch(() => showToast("error", historyRestoreFailed()))
			.finally(() => {
				void queryClient.invalidateQueries({ queryKey: TRASH_QUERY_KEY });
				void reloadGenerationLists(queryClient);
			});
	});
}
const FAVORITE_MUTATION_KEY = ["generations", "favorite"] as const;

/**
 * The history of what matches `filters` (on a board's page, of what is on the board), newest
 * first, one cursor page at a time.
 */
export function useHistoryList(
	timeZone: string,
	filters: HistoryFilters,
	boardId: string | null = null,
) {
	return useInfiniteQuery<
		GenerationPage,
		Error,
		InfiniteData<GenerationPage, string | null>,
		ReturnType<typeof createGenerationsListKey>,
		string | null
	>({
		queryKey: createGenerationsListKey(timeZone, filters, boardId),
		queryFn: ({ pageParam, signal }) =>
			fetchGenerationsPage({
				limit: GENERATIONS_PAGE_SIZE,
				cursor: pageParam,
				timeZone,
				query: { ...filters, boardId: boardId ?? undefined },
				signal,
			}),
		initialPageParam: null,
		getNextPageParam: (lastPage) => lastPage.nextCursor,
		// While a new search loads, the cards of the last one stay (dimmed) instead of skeletons.
		placeholderData: keepPreviousData,
	});
}

function createIsToday(timeZone: string) {
	const today = formatGroupDate(new Date(), { timeZone });
	return (generation: Generation) => formatGroupDate(generation.created_at, { timeZone }) === today;
}

/**
 * Deletes one generation: the card goes at once, the list reloads (pages and counts), and a toast
 * says how it went. A failure also reloads, in case the generation was already gone.
 */
export function useDeleteGeneration(timeZone: string, viewerEmail: string | null = null) {
	const queryClient = useQueryClient();
	return useMutation({
		mutationFn: (generation: Generation) => deleteGenerationById(generation.id),
		onSuccess: (answer, generation) => {
			const isToday = createIsToday(timeZone)(generation);
			updateGenerationLists(queryClient, (data) =>
				removeGeneration(data, generation.id, { isToday }),
			);
			announceDeletion(
				queryClient,
				historyDeleted(),
				[generation.id],
				answer.permanent,
				describeOtherOwners([generation], viewerEmail),
			);
			void reloadGenerationLists(queryClient);
		},
		onError: () => {
			void showToast("error", historyDeleteFailed());
			void reloadGenerationLists(queryClient);
		},
	});
}

/** Deletes the selected generations in one request (all or nothing), like useDeleteGeneration. */
export function useDeleteGenerations(timeZone: string, viewerEmail: string | null = null) {
	const queryClient = useQueryClient();
	return useMutation({
		mutationFn: (generations: readonly Generation[]) =>
			deleteGenerationsByIds(generations.map((generation) => generation.id)),
		onSuccess: ({ deleted, permanent }, generations) => {
			const ids = new Set(generations.map((generation) => generation.id));
			const isToday = createIsToday(timeZone);
			updateGenerationLists(queryClient, (data) => removeGenerations(data, ids, isToday));
			announceDeletion(
				queryClient,
				deleted === 1 ? historyDeleted() : historyDeletedMany({ count: deleted }),
				[...ids],
				permanent,
				describeOtherOwners(generations, viewerEmail),
			);
			void reloadGenerationLists(queryClient);
		},
		onError: () => {
			void showToast("error", historyBulkDeleteFailed());
			void reloadGenerationLists(queryClient);
		},
	});
}

type FavoriteChange = { id: string; isFavorite: boolean };

/** True while a later change of the same generation's star is still on its way. */
function hasLaterFavoriteChange(queryClient: QueryClient, id: string): boolean {
	const pending = queryClient.getMutationCache().findAll({
		mutationKey: FAVORITE_MUTATION_KEY,
		status: "pending",
		predicate: (mutation) => (mutation.state.variables as FavoriteChange | undefined)?.id === id,
	});
	// The change that just finished is still counted as pending.
	return pending.length > 1;
}

/**
 * Stars a generation or takes its star away: every card and the preview show it at once, the
 * server is told, and a refusal puts the star back as it was with a toast. Changes are sent one
 * after another, so the last one sent is what the server keeps.
 */
export function useToggleFavorite() {
	const queryClient = useQueryClient();
	const show = (id: string, isFavorite: boolean) =>
		updateGenerationLists(queryClient, (data) => setFavorite(data, id, isFavorite));
	return useMutation({
		mutationKey: FAVORITE_MUTATION_KEY,
		scope: { id: "generations-favorite" },
		mutationFn: ({ id, isFavorite }: FavoriteChange) => setGenerationFavorite(id, isFavorite),
		onMutate: ({ id, isFavorite }) => show(id, isFavorite),
		onSuccess: (isFavorite, { id }) => {
			if (!hasLaterFavoriteChange(queryClient, id)) show(id, isFavorite);
			void markGenerationListsStale(queryClient);
		},
		onError: (_error, { id, isFavorite }) => {
			if (!hasLaterFavoriteChange(queryClient, id)) show(id, !isFavorite);
			void showToast("error", historyFavouriteFailed());
		},
	});
}

/**
 * A start from the history, at once (quotas apply): the history reloads and shows it in progress
 * in its running card, a toast says it started; a refusal shows the server's message from the
 * catalogue. Rerun, Vary and Upscale all start this way.
 */
function useHistoryStart<Input>(
	toRequest: (input: Input) => StartGenerationRequest,
	describeStarted: (input: Input) => string,
) {
	const queryClient = useQueryClient();
	return useMutation({
		mutationFn: (input: Input) => startGeneration(toRequest(input)),
		onSuccess: (_answer, input) => {
			void showToast("success", describeStarted(input));
			void reloadGenerationLists(queryClient);
			// A variation or upscale joins its original's "Made from this", in a preview still open.
			void queryClient.invalidateQueries({ queryKey: FAMILY_QUERY_PREFIX });
		},
		onError: (error) => {
			void showToast("error", error instanceof ApiError ? error.message : errorUnknownError());
		},
	});
}

/** Rerun: a new generation with the same prompt, ratio, model and settings and a new seed. */
export function useRerunGeneration() {
	return useHistoryStart(buildRerunRequest, () => historyRerunStarted());
}

/** Vary or Upscale of one image of a generation. */
export type ImageActionStart = {
	generation: Generation;
	action: ImmediateAction;
	imageIndex: number;
	factor?: number;
};

/** Vary or Upscale from a card's menu or the preview: a new generation made from the image. */
export function useImageActionStart() {
	return useHistoryStart(
		({ generation, action, imageIndex, factor }: ImageActionStart) =>
			buildImageActionRequest(action, { generationId: generation.id, imageIndex }, factor),
		({ action }) => (action === "upscale" ? imageUpscaleStarted() : imageVaryStarted()),
	);
}
