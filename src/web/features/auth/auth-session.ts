import { z } from "zod";
import { SessionUserSchema } from "../../../shared/session";
import { authClient } from "../../lib/auth-client";
import { AuthActionError, readServerErrorMessage } from "./auth-errors";

/** The parts of the server session the browser needs; the token stays in the cookie. */
export const AuthSessionSchema = z.object({
	id: z.string(),
	userId: z.string(),
	expiresAt: z.coerce.date(),
});
export type AuthSession = z.infer<typeof AuthSessionSchema>;

export const SignedInStateSchema = z.object({
	session: AuthSessionSchema,
	user: SessionUserSchema,
});
export type SignedInState = z.infer<typeof SignedInStateSchema>;

export const SESSION_QUERY_KEY = ["auth", "session"] as const;

/** Asks the server who is signed in: the session and its user, or null when nobody is. */
export async function fetchSignedInState(): Promise<SignedInState | null> {
	const { data, error } = await authClient.getSession();
	if (error) {
		if (error.status === 401) return null;
		throw new AuthActionError(readServerErrorMessage(error));
	}
	if (!data) return null;
	return SignedInStateSchema.parse(data);
}
