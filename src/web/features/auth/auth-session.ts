import type { SessionUser } from "../../../shared/account/session";
import { ApiError, createUnexpectedAnswerError, fetchApiJson } from "../../lib/api/api-fetch";
import { isRecord, readString } from "../../lib/api/read-json";

/** The parts of the server session the browser needs; the token stays in the cookie. */
export type AuthSession = { id: string; userId: string; expiresAt: Date };

export type SignedInState = { session: AuthSession; user: SessionUser };

export const SESSION_QUERY_KEY = ["auth", "session"] as const;

/**
 * Reads Better Auth's answer to GET /get-session: null when nobody is signed in, the session and
 * its user otherwise, undefined when the answer has neither shape. Read by hand rather than with a
 * schema: this runs on every first page, where the schema library would cost more than the page's
 * own code (docs/decisions/005-first-load-budget.md).
 */
export function readSignedInState(body: unknown): SignedInState | null | undefined {
	if (body === null) return null;
	if (!isRecord(body) || !isRecord(body.session) || !isRecord(body.user)) return undefined;
	const id = readString(body.session, "id");
	const userId = readString(body.session, "userId");
	const expiresAt = new Date(readString(body.session, "expiresAt") ?? Number.NaN);
	const user = {
		id: readString(body.user, "id"),
		email: readString(body.user, "email"),
		name: readString(body.user, "name"),
		isAdmin: body.user.isAdmin,
	};
	if (!id || !userId || Number.isNaN(expiresAt.getTime())) return undefined;
	if (user.id === undefined || user.email === undefined || typeof user.isAdmin !== "boolean") {
		return undefined;
	}
	return {
		session: { id, userId, expiresAt },
		user: {
			id: user.id,
			email: user.email,
			isAdmin: user.isAdmin,
			emailVerified: body.user.emailVerified === true,
			isAdminUnclaimed: body.user.isAdminUnclaimed === true,
			...(user.name !== undefined ? { name: user.name } : {}),
		},
	};
}

/**
 * Asks the server who is signed in: the session and its user, or null when nobody is. A plain
 * request to Better Auth's endpoint, so the first page need not load the auth client.
 */
export async function fetchSignedInState(): Promise<SignedInState | null> {
	try {
		const { body, status } = await fetchApiJson("/api/auth/get-session");
		const state = readSignedInState(body);
		if (state === undefined) throw createUnexpectedAnswerError(status);
		return state;
	} catch (error) {
		if (error instanceof ApiError && error.status === 401) return null;
		throw error;
	}
}
