// Personal API tokens: their scopes, the account page's requests and the answers. zod/mini, since
// the account page parses the answers in the browser (docs/decisions/005-first-load-budget.md).
import { z } from "zod/mini";
import {
	accountRefusedTokenLimit,
	sharedMustBeText,
	sharedTokenExpiryChoice,
	sharedTokenNameMissing,
	sharedTokenNameTooLong,
	sharedTokenScopesList,
	sharedTokenScopesMissing,
} from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";

/**
 * What a token may do. `generate`: start generations and poll them; `read`: list, get, download,
 * images, archives, favourites, boards, and list shared links; `delete`: delete one or many;
 * `organize`: make, change and delete boards and put generations on them; `share`: make, renew and
 * revoke shared links (and list them).
 */
export const API_TOKEN_SCOPES = ["generate", "read", "delete", "organize", "share"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** The lifetimes a token may be given, in days; null is a token that does not expire. */
export const API_TOKEN_LIFETIMES_DAYS = [30, 90, 365] as const;

export const API_TOKEN_NAME_MAX_LENGTH = 100;

/**
 * The most tokens a person may hold that have not expired: each has a rate limit of its own, so
 * more tokens would multiply what one person may ask of the server.
 */
export const MAX_ACTIVE_API_TOKENS = 20;

/**
 * What minting a token beyond MAX_ACTIVE_API_TOKENS answers, with VALIDATION_ERROR, as a webhook
 * beyond its limit does, in the language asked (English when none is).
 */
export const apiTokenLimitMessage = (options?: MessageOptions): string =>
	accountRefusedTokenLimit({ limit: MAX_ACTIVE_API_TOKENS }, options);

/** Its English text. */
export const API_TOKEN_LIMIT_MESSAGE = apiTokenLimitMessage({ language: "en" });

export const ApiTokenScopeSchema = z.enum(API_TOKEN_SCOPES);

/** `POST /api/account/tokens`. */
export const CreateApiTokenRequestSchema = z.object({
	name: z.string({ error: () => sharedMustBeText({ field: "name" }) }).check(
		z.trim(),
		z.minLength(1, { error: () => sharedTokenNameMissing() }),
		z.maxLength(API_TOKEN_NAME_MAX_LENGTH, {
			error: () => sharedTokenNameTooLong({ max: String(API_TOKEN_NAME_MAX_LENGTH) }),
		}),
	),
	scopes: z
		.array(ApiTokenScopeSchema, {
			error: () => sharedTokenScopesList({ scopes: API_TOKEN_SCOPES.join(", ") }),
		})
		.check(z.minLength(1, { error: () => sharedTokenScopesMissing() })),
	expiresInDays: z.nullable(
		z.literal(API_TOKEN_LIFETIMES_DAYS, { error: () => sharedTokenExpiryChoice() }),
	),
});
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequestSchema>;

/** A token as the list shows it; never the token itself. Times are ISO 8601. */
export const ApiTokenSchema = z.object({
	id: z.string(),
	name: z.string(),
	scopes: z.array(ApiTokenScopeSchema),
	createdAt: z.string(),
	lastUsedAt: z.nullable(z.string()),
	expiresAt: z.nullable(z.string()),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** The answer to creating a token: the only time the token itself is shown. */
export const CreatedApiTokenSchema = z.extend(ApiTokenSchema, { token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

/** `GET /api/account/tokens`: newest first. */
export const ApiTokenListSchema = z.object({ tokens: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

/** `DELETE /api/account/tokens/:id`. */
export const RevokeApiTokenResponseSchema = z.object({ success: z.literal(true) });
