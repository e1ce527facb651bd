import { HttpResponse, http } from "msw";
import { z } from "zod/mini";
import {
	API_TOKEN_LIMIT_MESSAGE,
	type ApiToken,
	CreateApiTokenRequestSchema,
	type CreatedApiToken,
	MAX_ACTIVE_API_TOKENS,
} from "../../../shared/account/api-tokens";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/core/errors";
import { mswServer } from "../msw-server";

let nextTokenNumber = 1;

/** A token as the list shows it, made just now; pass only what the test is about. */
export function createTestApiToken(overrides: Partial<ApiToken> = {}): ApiToken {
	const number = nextTokenNumber++;
	return {
		id: `00000000-0000-4000-8000-${String(number).padStart(12, "0")}`,
		name: `Script ${number}`,
		scopes: ["generate", "read"],
		createdAt: new Date().toISOString(),
		lastUsedAt: null,
		expiresAt: null,
		...overrides,
	};
}

/**
 * Answers `/api/account/tokens` as the server does for a signed-in person: the list newest first,
 * a new token shown once, a revoked one gone, none beyond MAX_ACTIVE_API_TOKENS that have not
 * expired. `failure` makes creating answer with that error.
 */
export function startFakeApiTokensServer(
	options: { tokens?: ApiToken[]; failure?: ErrorCode } = {},
) {
	const state = {
		tokens: [...(options.tokens ?? [])],
		created: [] as CreatedApiToken[],
		revoked: [] as string[],
	};
	const fail = (code: ErrorCode, message?: string) =>
		HttpResponse.json(
			{ success: false, error: errorBody(code, message) },
			{ status: ERRORS[code].status },
		);
	mswServer.use(
		http.get("*/api/account/tokens", () => HttpResponse.json({ tokens: state.tokens })),
		http.post("*/api/account/tokens", async ({ request }) => {
			if (options.failure) return fail(options.failure);
			const parsed = z.safeParse(CreateApiTokenRequestSchema, await request.json());
			if (!parsed.success) return fail("VALIDATION_ERROR");
			const active = state.tokens.filter(
				(token) => token.expiresAt === null || Date.parse(token.expiresAt) > Date.now(),
			);
			if (active.length >= MAX_ACTIVE_API_TOKENS) {
				return fail("VALIDATION_ERROR", API_TOKEN_LIMIT_MESSAGE);
			}
			const days = parsed.data.expiresInDays;
			const token = createTestApiToken({
				name: parsed.data.name,
				scopes: parsed.data.scopes,
				expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString(),
			});
			const created = { ...token, token: `atl_fake${token.id.replaceAll("-", "")}` };
			state.tokens.unshift(token);
			state.created.push(created);
			return HttpResponse.json(created, { status: 201 });
		}),
		http.delete("*/api/account/tokens/:id", ({ params }) => {
			const before = state.tokens.length;
			state.tokens = state.tokens.filter((token) => token.id !== params.id);
			if (state.tokens.length === before) return fail("NOT_FOUND");
			state.revoked.push(String(params.id));
			return HttpResponse.json({ success: true });
		}),
	);
	return {
		readCreated: () => state.created,
		readRevoked: () => state.revoked,
	};
}
