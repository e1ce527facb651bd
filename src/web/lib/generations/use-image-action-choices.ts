// Which actions a result image offers, read from the models offered (one list for the whole app,
// fetched once and shared with the history's).
import { type ImageActionChoices, NO_IMAGE_ACTIONS, readImageActions } from "./image-actions";
import { useOfferedModels } from "./models-requests";

/** The actions on an image made with `modelId`; none while the models are unknown. */
export function useImageActionChoices(modelId: string | undefined): ImageActionChoices {
	const { data } = useOfferedModels();
	return modelId ? readImageActions(modelId, data?.models) : NO_IMAGE_ACTIONS;
}
