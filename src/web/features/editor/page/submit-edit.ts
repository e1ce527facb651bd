// Edit region's and Expand's start: the mask uploaded as any image is (a PNG at the source's pixel
// size), then the request naming it, or the expansion's placement.

import {
	type StartGenerationRequest,
	startGeneration,
} from "../../../lib/generations/generations-requests";
import type { EditorSource, EditorTool } from "../../../lib/generations/image-actions";
import { uploadImage } from "../../../lib/generations/uploads-requests";
import type { Mask } from "../mask/mask-brush";
import { encodeMaskPng } from "../mask/mask-png";
import { type ExpandPlacement, toExpandRequest } from "../tools/expand-geometry";

export type EditSettings = {
	prompt: string;
	model: string;
	count: number | null;
	seed: number | null;
};

export type EditWork =
	| { tool: Extract<EditorTool, "region">; mask: Mask }
	| { tool: Extract<EditorTool, "expand">; placement: ExpandPlacement };

/** Starts the edit; answers the new generation's id. Throws the API's error as it comes. */
export async function submitEdit(
	source: EditorSource,
	work: EditWork,
	settings: EditSettings,
	signal?: AbortSignal,
): Promise<string> {
	const common = {
		reference: source,
		prompt: settings.prompt,
		model: settings.model,
		...(settings.count === null ? {} : { count: settings.count }),
		...(settings.seed === null ? {} : { seed: settings.seed }),
	};
	let request: StartGenerationRequest;
	if (work.tool === "region") {
		const png = await encodeMaskPng(work.mask);
		const upload = await uploadImage(new File([png], "mask.png", { type: "image/png" }), signal);
		request = { ...common, action: "edit-region", mask: { uploadId: upload.uploadId } };
	} else {
		request = { ...common, action: "expand", expand: toExpandRequest(work.placement) };
	}
	const started = await startGeneration(request, signal);
	return started.id;
}
