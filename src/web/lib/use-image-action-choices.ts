// Which actions a result image offers, read from the models offered (one list for the whole app,
// fetched once and shared with the history's).
import { useQuery } from "@tanstack/react-query";
import { type ImageActionChoices, NO_IMAGE_ACTIONS, readImageActions } from "./image-actions";
import { fetchModels, MODELS_QUERY_KEY } from "./models-requests";

/** The actions on an image made with `modelId`; none while the models are unknown. */
export function useImageActionChoices(modelId: string | undefined): ImageActionChoices {
	const { data } = useQuery({
		queryKey: MODELS_QUERY_KEY,
		queryFn: ({ signal }) => fetchModels(signal),
		staleTime: 5 * 60_000,
	});
	return modelId ? readImageActions(modelId, data?.models) : NO_IMAGE_ACTIONS;
}
