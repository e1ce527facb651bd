import {
	type InfiniteData,
	useInfiniteQuery,
	useMutation,
	useQueryClient,
} from "@tanstack/react-query";
import { formatGroupDate } from "../../../shared/date-groups";
import type { Generation, GenerationPage } from "../../../shared/generation-responses";
import { deleteGenerationById, fetchGenerationsPage } from "../../lib/generations-requests";
import { showToast } from "../../lib/toast";
import {
	createGenerationsListKey,
	reloadGenerationLists,
	removeGeneration,
	updateGenerationLists,
} from "./generations-cache";

/**
 * Items per cursor page, sent with every request: two or three screens of cards on a wide screen,
 * small enough to answer at once. (The server's own default lives beside its classic-zod request
 * schemas, which the browser does not load.)
 */
const GENERATIONS_PAGE_SIZE = 24;

const DELETE_SUCCESS_MESSAGE = "Generation deleted successfully";
const DELETE_FAILURE_MESSAGE = "Failed to delete generation. Please try again.";

/** The history, newest first, one cursor page at a time. */
export function useGenerationsList(timeZone: string) {
	return useInfiniteQuery<
		GenerationPage,
		Error,
		InfiniteData<GenerationPage, string | null>,
		ReturnType<typeof createGenerationsListKey>,
		string | null
	>({
		queryKey: createGenerationsListKey(timeZone),
		queryFn: ({ pageParam, signal }) =>
			fetchGenerationsPage({ limit: GENERATIONS_PAGE_SIZE, cursor: pageParam, timeZone, signal }),
		initialPageParam: null,
		getNextPageParam: (lastPage) => lastPage.nextCursor,
	});
}

/**
 * Deletes one generation: the card goes at once, the list reloads (pages and counts), and a toast
 * says how it went. A failure also reloads, in case the generation was already gone.
 */
export function useDeleteGeneration(timeZone: string) {
	const queryClient = useQueryClient();
	return useMutation({
		mutationFn: (generation: Generation) => deleteGenerationById(generation.id),
		onSuccess: (_answer, generation) => {
			const isToday =
				formatGroupDate(generation.created_at, { timeZone }) ===
				formatGroupDate(new Date(), { timeZone });
			updateGenerationLists(queryClient, (data) =>
				removeGeneration(data, generation.id, { isToday }),
			);
			void showToast("success", DELETE_SUCCESS_MESSAGE);
			void reloadGenerationLists(queryClient);
		},
		onError: () => {
			void showToast("error", DELETE_FAILURE_MESSAGE);
			void reloadGenerationLists(queryClient);
		},
	});
}
