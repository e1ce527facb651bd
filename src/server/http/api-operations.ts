import type { z } from "zod";
import { ErrorEnvelopeSchema } from "../../shared/generations/generation-responses";
import type { RouteAccess } from "./app-env";

/** Any zod schema, classic or mini: the document reads both through z.toJSONSchema. */
export type Schema = z.core.$ZodType;

export type Parameter = { name: string; description: string; example: string };

/** What an answer carries: JSON of a schema, or a file of a media type. */
type Answer =
	| { description: string; schema: Schema; example: unknown }
	| { description: string; mediaType: string };

/**
 * One route of the public API: how it is called, who may call it, the schemas that check its
 * input (the same ones its handler parses with) and what it answers. Each domain's table of them
 * (`*-operations.ts` beside its routes: GENERATION_OPERATIONS in
 * generations/request/generation-operations.ts, UPLOAD_OPERATIONS in uploads/upload-operations.ts)
 * guards its routes with their entries' `access`, and the OpenAPI document
 * (openapi/openapi-document.ts) is built from these entries, so the document cannot leave a route
 * out or misstate its scope.
 */
export type ApiOperation = {
	id: string;
	method: "get" | "post" | "put" | "patch" | "delete";
	/** OpenAPI's form, `{id}` for a parameter. */
	path: string;
	summary: string;
	description?: string;
	tag:
		| "Boards"
		| "Generations"
		| "History"
		| "Images"
		| "Models"
		| "Prompts"
		| "Sharing"
		| "Trash"
		| "Uploads";
	access: RouteAccess;
	pathParameters?: readonly Parameter[];
	headers?: readonly (Parameter & { schema: Record<string, unknown> })[];
	query?: Schema;
	/** JSON with an example, or a multipart form (a file upload), which has none in JSON. */
	body?:
		| { schema: Schema; example: unknown }
		| { schema: Schema; mediaType: "multipart/form-data" };
	success: { status: 200 | 201; answer: Answer };
	/** Error answers beyond 401, 403, 429 and 500, which every token route may give. */
	errors?: readonly (400 | 404 | 410 | 413 | 422 | 451 | 502)[];
};

/** Every error answer's body. */
export const ERROR_ENVELOPE_SCHEMA: Schema = ErrorEnvelopeSchema;

/**
 * Who may call the routes outside the public API, which no token may call: the account's own
 * (a signed-in browser; making what acts for the person later, a token or a webhook, with a
 * verified address when one is required) and the administrator's (their browser session only).
 * The public API's routes take their access from their entries in the domains' tables.
 */
export const BROWSER_ACCESS = {
	account: { scopes: [] },
	accountGrant: { scopes: [], needsVerifiedEmail: true },
	admin: { scopes: [], isAdminOnly: true },
} as const satisfies Record<string, RouteAccess>;
