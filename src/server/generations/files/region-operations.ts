import { API_TOKEN_SCOPES } from "../../../shared/account/api-tokens";
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
	readSignedFile: {
		id: "readSignedFile",
		method: "get",
		path: "/api/signed-files/{token}",
		summary: "A file sent to an image service by a short-lived URL",
		description:
			"Where a model's entry asks for `imageUrls`, the `http` contract's start carries its `image` and `mask` as URLs of this route (with S3 storage, the bucket's own presigned GET instead): each names one file and when it ends, signed with the server's secret, and answers its bytes to anyone holding it, with no session, for 15 minutes. An expired, altered or unknown token answers 404 alike.",
		tag: "Images",
		access: { scopes: API_TOKEN_SCOPES, isOpen: true },
		pathParameters: [
			{
				name: "token",
				description: "The file's signed token, as the URL Atelier sent carries it.",
				example:
					"Z2VuZXJhdGlvbnMvLi4uL2lucHV0LWltYWdlLnBuZw.1795000000.5qkRyYk2cF1x2m0bS0cJ8m4mXw0tYw9cWkq2n4pHq7A",
			},
		],
		success: { status: 200, answer: { description: "The file.", mediaType: "image/*" } },
		errors: [404],
	},
} as const satisfies Record<string, ApiOperation>;
