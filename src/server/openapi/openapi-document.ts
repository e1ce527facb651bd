import { z } from "zod";
import { API_TOKEN_SCOPES, MAX_ACTIVE_API_TOKENS } from "../../shared/account/api-tokens";
import { ERRORS, type ErrorCode, errorBody } from "../../shared/core/errors";
import { ErrorEnvelopeSchema } from "../../shared/generations/generation-responses";
import { authRefusedTokenScope } from "../../shared/i18n/messages";
import { BOARD_OPERATIONS } from "../boards/board-operations";
import { REGION_OPERATIONS } from "../generations/files/region-operations";
import { GENERATION_OPERATIONS } from "../generations/request/generation-operations";
import { TRASH_OPERATIONS } from "../generations/trash/trash-operations";
import type { ApiOperation } from "../http/api-operations";
import { formatAlternatives } from "../i18n/request-language";
import { MODEL_OPERATIONS } from "../models/model-operations";
import { PROMPT_OPERATIONS } from "../prompts/prompt-operations";
import { SHARE_OPERATIONS } from "../sharing/share-operations";
import { UPLOAD_OPERATIONS } from "../uploads/upload-operations";

/** The OpenAPI document's shape, as far as this file builds it (OpenAPI 3.1 is JSON Schema 2020-12). */
type JsonObject = Record<string, unknown>;

export type OpenApiDocument = {
	openapi: "3.1.1";
	info: JsonObject;
	servers: JsonObject[];
	tags: JsonObject[];
	paths: Record<string, Record<string, JsonObject>>;
	components: JsonObject;
};

/** Every operation a token may call, in the order the document lists them. */
export const API_OPERATIONS: readonly ApiOperation[] = [
	...Object.values(MODEL_OPERATIONS),
	...Object.values(GENERATION_OPERATIONS),
	...Object.values(TRASH_OPERATIONS),
	...Object.values(REGION_OPERATIONS),
	...Object.values(UPLOAD_OPERATIONS),
	...Object.values(BOARD_OPERATIONS),
	...Object.values(SHARE_OPERATIONS),
	...Object.values(PROMPT_OPERATIONS),
];

/** A zod schema as JSON Schema: what a client sends (input) or what it gets back (output). */
function toJsonSchema(schema: z.core.$ZodType, io: "input" | "output"): JsonObject {
	const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
		io,
		// A check the JSON Schema cannot state (a refinement, say) leaves its field open rather
		// than failing the document; the field's metadata says the rule in words.
		unrepresentable: "any",
	}) as JsonObject;
	return json;
}

function errorExample(code: ErrorCode, message?: string): JsonObject {
	return { success: false, error: errorBody(code, message) };
}

const RATE_LIMIT_HEADERS = {
	RateLimit: {
		description:
			'Requests left in this minute and seconds until it ends (draft-ietf-httpapi-ratelimit-headers): `"per-token";r=59;t=42`.',
		schema: { type: "string" },
	},
	"RateLimit-Policy": {
		description: 'The token\'s limit: `"per-token";q=60;w=60` (60 requests in 60 seconds).',
		schema: { type: "string" },
	},
};

function errorAnswer(description: string, example: JsonObject, headers?: JsonObject): JsonObject {
	return {
		description,
		...(headers ? { headers } : {}),
		content: {
			"application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" }, example },
		},
	};
}

/** The error answers of an operation: the ones every token route may give, and its own. */
function errorAnswers(operation: ApiOperation): Record<string, JsonObject> {
	const english = { language: "en" } as const;
	const scopes = formatAlternatives(
		operation.access.scopes.map((scope) => `"${scope}"`),
		english,
	);
	const answers: Record<string, JsonObject> = {
		"401": errorAnswer(
			"No session and no token, or a token that is unknown, expired or revoked.",
			errorExample(operation.access.signedOutCode ?? "AUTH_ERROR"),
		),
		"403": errorAnswer(
			"The token lacks the scope this operation needs.",
			errorExample("TOKEN_SCOPE_MISSING", authRefusedTokenScope({ scopes }, english)),
		),
		"429": errorAnswer(
			"The token's rate limit, or a quota of generations, is reached.",
			errorExample("RATE_LIMITED"),
			{
				"Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } },
				...RATE_LIMIT_HEADERS,
			},
		),
		"500": errorAnswer("Something went wrong on the server.", errorExample("UNKNOWN_ERROR")),
	};
	if (operation.access.isOpen) {
		delete answers["401"];
		delete answers["403"];
	}
	for (const status of operation.errors ?? []) {
		if (status === 400) {
			answers["400"] = errorAnswer("The input is not valid.", errorExample("VALIDATION_ERROR"));
		} else if (status === 404) {
			answers["404"] = errorAnswer("Not found, or not the caller's.", errorExample("NOT_FOUND"));
		} else if (status === 413) {
			answers["413"] = errorAnswer(
				"The request body is larger than allowed.",
				errorExample("PAYLOAD_TOO_LARGE"),
			);
		} else if (status === 410) {
			answers["410"] = errorAnswer(
				"The link has ended: revoked, replaced, expired, or what it showed is gone.",
				errorExample("SHARE_ENDED"),
			);
		} else if (status === 451) {
			answers["451"] = errorAnswer(
				"The administrator took the link down.",
				errorExample("SHARE_HIDDEN"),
			);
		} else if (status === 502) {
			answers["502"] = errorAnswer(
				"The service this operation calls failed or did not answer in time.",
				errorExample("ENHANCE_FAILED"),
			);
		} else if (operation.tag === "Prompts") {
			answers["422"] = errorAnswer(
				"The chat model refused to rewrite the prompt.",
				errorExample("ENHANCE_REFUSED"),
			);
		} else if (operation.tag === "Sharing") {
			answers["422"] = errorAnswer(
				"The moderation check flagged the images: no public link is made.",
				errorExample("SHARE_FLAGGED"),
			);
		} else {
			answers["422"] = errorAnswer(
				"The Idempotency-Key was already used with another request.",
				errorExample("IDEMPOTENCY_KEY_REUSED"),
			);
		}
	}
	return answers;
}

function successAnswer(operation: ApiOperation): JsonObject {
	const { answer } = operation.success;
	if ("mediaType" in answer) {
		return {
			description: answer.description,
			headers: RATE_LIMIT_HEADERS,
			content: {
				[answer.mediaType]: { schema: { type: "string", contentMediaType: answer.mediaType } },
			},
		};
	}
	return {
		description: answer.description,
		headers: RATE_LIMIT_HEADERS,
		content: {
			"application/json": {
				schema: toJsonSchema(answer.schema, "output"),
				example: answer.example,
			},
		},
	};
}

function parametersOf(operation: ApiOperation): JsonObject[] {
	const path = (operation.pathParameters ?? []).map((parameter) => ({
		name: parameter.name,
		in: "path",
		required: true,
		description: parameter.description,
		schema: { type: "string" },
		example: parameter.example,
	}));
	const headers = (operation.headers ?? []).map((header) => ({
		name: header.name,
		in: "header",
		required: false,
		description: header.description,
		schema: header.schema,
		example: header.example,
	}));
	const query: JsonObject[] = [];
	if (operation.query) {
		const json = toJsonSchema(operation.query, "input");
		const properties = (json.properties ?? {}) as Record<string, JsonObject>;
		const required = new Set((json.required ?? []) as string[]);
		for (const [name, schema] of Object.entries(properties)) {
			query.push({ name, in: "query", required: required.has(name), schema });
		}
	}
	return [...path, ...query, ...headers];
}

/**
 * Who may call an operation: a token with one of its scopes (OpenAPI 3.1 lets a non-OAuth scheme
 * list the roles it needs), or a browser's session; an open operation, anyone.
 */
function securityOf(operation: ApiOperation): JsonObject[] {
	const requirements: JsonObject[] = operation.access.scopes.map((scope) => ({
		apiToken: [scope],
	}));
	requirements.push({ session: [] });
	if (operation.access.isOpen) requirements.push({});
	return requirements;
}

function requestBodyOf(body: NonNullable<ApiOperation["body"]>): JsonObject {
	const schema = toJsonSchema(body.schema, "input");
	if ("mediaType" in body) {
		return { required: true, content: { [body.mediaType]: { schema } } };
	}
	return { required: true, content: { "application/json": { schema, example: body.example } } };
}

function describeOperation(operation: ApiOperation): JsonObject {
	const scopes = operation.access.scopes.map((scope) => `\`${scope}\``).join(" or ");
	const access = [
		operation.access.isOpen ? "Open to anyone." : `A token needs the ${scopes} scope.`,
		operation.access.needsVerifiedEmail
			? `Where the server requires verified addresses, the token's owner needs one (else ${ERRORS.EMAIL_NOT_VERIFIED.status} \`EMAIL_NOT_VERIFIED\`).`
			: undefined,
	]
		.filter(Boolean)
		.join(" ");
	return {
		operationId: operation.id,
		summary: operation.summary,
		description: [operation.description, access].filter(Boolean).join("\n\n"),
		tags: [operation.tag],
		security: securityOf(operation),
		parameters: parametersOf(operation),
		...(operation.body ? { requestBody: requestBodyOf(operation.body) } : {}),
		responses: {
			[String(operation.success.status)]: successAnswer(operation),
			...errorAnswers(operation),
		},
	};
}

/**
 * The API's OpenAPI 3.1 document, built from the operations' table and the zod schemas their
 * routes validate with: nothing in it is written twice.
 */
export function buildOpenApiDocument(options: { baseUrl: string }): OpenApiDocument {
	const paths: OpenApiDocument["paths"] = {};
	for (const operation of API_OPERATIONS) {
		paths[operation.path] ??= {};
		const item = paths[operation.path];
		if (item) item[operation.method] = describeOperation(operation);
	}
	return {
		openapi: "3.1.1",
		info: {
			title: "Atelier API",
			version: "1",
			description: [
				"Generate images and read your history from scripts, bots and other apps.",
				"Make a personal API token on your account page and send it as `Authorization: Bearer <token>`. A token acts as you, within its scopes: " +
					`${API_TOKEN_SCOPES.map((scope) => `\`${scope}\``).join(", ")}. Each token may make a limited number of requests a minute (the \`RateLimit\` headers say how many are left), and a person may hold ${MAX_ACTIVE_API_TOKENS} tokens that have not expired.`,
				"A token reaches only its owner's own generations, images and uploads, whoever the owner is: the administrator's tokens too. Beside them, it sees the boards others share with everyone signed in, read-only, and the images of the generations on them. What the administrator may do with everyone's (people, moderation, the audit log, the usage report) is for their signed-in browser only, as is managing tokens, webhooks and the account.",
				`Every error answers with the same envelope: \`{ "success": false, "error": { "code", "message" } }\`; a missing token answers ${ERRORS.AUTH_ERROR.status}.`,
			].join("\n\n"),
		},
		servers: [{ url: options.baseUrl }],
		tags: [
			{ name: "Generations", description: "Start a generation and follow it." },
			{ name: "History", description: "Your generations." },
			{ name: "Images", description: "Images and archives." },
			{ name: "Models", description: "What may be chosen." },
			{
				name: "Trash",
				description: "Deleted generations, kept for TRASH_DAYS before they are removed for good.",
			},
			{ name: "Uploads", description: "Reference images to start a generation from." },
			{
				name: "Boards",
				description:
					"Named boards of your generations and saved searches (smart boards); a shared board is seen read-only by everyone signed in.",
			},
			{
				name: "Sharing",
				description:
					"Links to a generation or one image, which anyone (or anyone signed in, as the server says) may open, until they expire or are revoked.",
			},
			{ name: "Prompts", description: "Styles, and the prompts you used." },
		],
		paths,
		components: {
			securitySchemes: {
				apiToken: {
					type: "http",
					scheme: "bearer",
					description: `A personal API token from the account page. Its scopes: ${API_TOKEN_SCOPES.join(", ")}.`,
				},
				session: {
					type: "apiKey",
					in: "cookie",
					name: "atelier.session_token",
					description: "The browser's session, after signing in.",
				},
			},
			schemas: { ErrorEnvelope: toJsonSchema(ErrorEnvelopeSchema, "output") },
		},
	};
}
