import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type {
	ApiToken,
	ApiTokenScope,
	CreateApiTokenRequest,
	CreatedApiToken,
} from "../../shared/account/api-tokens";
import {
	API_TOKEN_SCOPES,
	apiTokenLimitMessage,
	MAX_ACTIVE_API_TOKENS,
} from "../../shared/account/api-tokens";
import type { DatabaseSchema } from "../db/schema";
import { AppError } from "../errors/app-error";

/** Every token starts so, which makes one easy to recognise in a log or a secret scanner. */
export const API_TOKEN_PREFIX = "atl_";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * SHA-256 of the token: a token is 32 random bytes, so a fast hash is enough (there is nothing to
 * guess), and a lookup by hash is one indexed query.
 */
function hashToken(token: string): string {
	return createHash("sha256").update(token).digest("base64url");
}

function presentToken(row: {
	id: string;
	name: string;
	scopes: string[];
	created_at: Date;
	last_used_at: Date | null;
	expires_at: Date | null;
}): ApiToken {
	return {
		id: row.id,
		name: row.name,
		scopes: API_TOKEN_SCOPES.filter((scope) => row.scopes.includes(scope)),
		createdAt: row.created_at.toISOString(),
		lastUsedAt: row.last_used_at?.toISOString() ?? null,
		expiresAt: row.expires_at?.toISOString() ?? null,
	};
}

/**
 * Makes a token for a person; the answer is the only place the token itself ever appears.
 * VALIDATION_ERROR when they already hold MAX_ACTIVE_API_TOKENS that have not expired: the
 * count and the insert take turns per person (their row locked), so two requests at once cannot
 * both pass it.
 */
export async function createApiToken(
	db: Kysely<DatabaseSchema>,
	userId: string,
	request: CreateApiTokenRequest,
): Promise<CreatedApiToken> {
	const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
	const now = new Date();
	const row = {
		id: randomUUID(),
		user_id: userId,
		name: request.name,
		token_hash: hashToken(token),
		scopes: [...new Set(request.scopes)],
		created_at: now,
		expires_at:
			request.expiresInDays === null
				? null
				: new Date(now.getTime() + request.expiresInDays * DAY_MS),
		last_used_at: null,
	};
	await db.transaction().execute(async (transaction) => {
		await transaction
			.selectFrom("user")
			.select("id")
			.where("id", "=", userId)
			.forUpdate()
			.execute();
		const { active } = await transaction
			.selectFrom("api_tokens")
			.select((select) => select.fn.countAll<string>().as("active"))
			.where("user_id", "=", userId)
			.where((where) => where.or([where("expires_at", "is", null), where("expires_at", ">", now)]))
			.executeTakeFirstOrThrow();
		if (Number(active) >= MAX_ACTIVE_API_TOKENS) {
			throw new AppError("VALIDATION_ERROR", apiTokenLimitMessage);
		}
		await transaction.insertInto("api_tokens").values(row).execute();
	});
	return { ...presentToken(row), token };
}

/** A person's tokens, newest first. */
export async function listApiTokens(
	db: Kysely<DatabaseSchema>,
	userId: string,
): Promise<ApiToken[]> {
	const rows = await db
		.selectFrom("api_tokens")
		.select(["id", "name", "scopes", "created_at", "last_used_at", "expires_at"])
		.where("user_id", "=", userId)
		.orderBy("created_at", "desc")
		.orderBy("id", "desc")
		.execute();
	return rows.map(presentToken);
}

/** Ends one of a person's tokens at once; false when they have no token with that id. */
export async function revokeApiToken(
	db: Kysely<DatabaseSchema>,
	userId: string,
	id: string,
): Promise<boolean> {
	const result = await db
		.deleteFrom("api_tokens")
		.where("id", "=", id)
		.where("user_id", "=", userId)
		.executeTakeFirst();
	return result.numDeletedRows > 0n;
}

/** Ends every token of a person at once (the administrator disabling them). */
export async function revokeApiTokensOf(
	db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>,
	userId: string,
): Promise<void> {
	await db.deleteFrom("api_tokens").where("user_id", "=", userId).execute();
}

/**
 * Ends every token a person made up to `moment`: taking the account back (a password reset, say)
 * ends what whoever held it before had made.
 */
export async function revokeTokensMadeBefore(
	db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>,
	userId: string,
	moment: Date,
): Promise<void> {
	await db
		.deleteFrom("api_tokens")
		.where("user_id", "=", userId)
		.where("created_at", "<=", moment)
		.execute();
}

export type ValidApiToken = { id: string; userId: string; scopes: ApiTokenScope[] };

/**
 * The token a request presents, if it exists and has not expired, marking it used. Revoked tokens
 * are deleted rows, so they are simply not found.
 */
export async function findUsableApiToken(
	db: Kysely<DatabaseSchema>,
	token: string,
): Promise<ValidApiToken | undefined> {
	if (!token.startsWith(API_TOKEN_PREFIX)) return undefined;
	const row = await db
		.updateTable("api_tokens")
		.set({ last_used_at: new Date() })
		.where("token_hash", "=", hashToken(token))
		.where((where) =>
			where.or([where("expires_at", "is", null), where("expires_at", ">", new Date())]),
		)
		.returning(["id", "user_id", "scopes"])
		.executeTakeFirst();
	if (!row) return undefined;
	return {
		id: row.id,
		userId: row.user_id,
		scopes: API_TOKEN_SCOPES.filter((scope) => row.scopes.includes(scope)),
	};
}
