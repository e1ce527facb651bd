import { GENERATION_ID } from "../../http/api-examples";
import type { ApiOperation, Parameter } from "../../http/api-operations";

const ID_PARAMETER: Parameter = {
	name: "id",
	description: "The generation's id.",
	example: GENERATION_ID,
};

/**
 * The files of a region edit (`edit-region`, `expand`; docs/decisions/033-region-edit.md): the
 * mask it was made with and its own copy of the image it started from, its owner's alone, as
 * generations/files/file-routes.ts serves them.
 */
export const REGION_OPERATIONS = {
	readMask: {
		id: "readMask",
		method: "get",
		path: "/api/generations/{id}/mask",
		summary: "The mask of a region edit",
		description:
			"The mask an `edit-region` generation was made with, as Atelier keeps it: a greyscale PNG of its source's pixel size, white where the image could change, black where it was kept. Upload it again (`POST /api/uploads`) to make another edit with the same mask. 404 for a generation without one (an expansion's mask is its new area, from `region.frame`).",
		tag: "Images",
		access: { scopes: ["read"] },
		pathParameters: [ID_PARAMETER],
		success: { status: 200, answer: { description: "The mask.", mediaType: "image/png" } },
		errors: [404],
	},
	readSource: {
		id: "readSource",
		method: "get",
		path: "/api/generations/{id}/source",
		summary: "The image a region edit started from",
		description:
			"An `edit-region` or `expand` generation's own copy of the image it started from (the preview's \"before\"), kept whatever becomes of its parent or upload. 404 for any other generation.",
		tag: "Images",
		access: { scopes: ["read"] },
		pathParameters: [ID_PARAMETER],
		success: { status: 200, answer: { description: "The image.", mediaType: "image/*" } },
		errors: [404],
	},
} as const satisfies Record<string, ApiOperation>;
