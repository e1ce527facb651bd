import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, use, useCallback, useMemo } from "react";
import type { SessionUser } from "../../../shared/account/session";
import { loadAuthActions } from "../../lib/account/auth-client";
import {
	type AuthSession,
	fetchSignedInState,
	SESSION_QUERY_KEY,
	type SignedInState,
} from "./auth-session";

export type Credentials = { email: string; password: string };

type AuthContextValue = {
	user: SessionUser | null;
	session: AuthSession | null;
	/** True until the first session lookup has answered. */
	isLoading: boolean;
	/** The server's word on the administrator role, never computed in the browser. */
	isAdmin: boolean;
	signUp: (credentials: Credentials) => Promise<void>;
	signIn: (credentials: Credentials) => Promise<void>;
	/** Starts the Google flow; on success the browser leaves for Google. */
	signInWithGoogle: () => Promise<void>;
	signOut: () => Promise<void>;
	/** Looks the session up again, after the server changed it (a password reset, a verification). */
	refreshSession: () => Promise<void>;
	/** Forgets the signed-in user here, after the server has ended the session (account deleted). */
	forgetSession: () => Promise<void>;
};

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
	const queryClient = useQueryClient();
	const sessionQuery = useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: fetchSignedInState });
	const signedIn = sessionQuery.data ?? null;

	const replaceSignedInState = useCallback(
		async (next: SignedInState | null) => {
			await queryClient.cancelQueries({ queryKey: SESSION_QUERY_KEY });
			queryClient.setQueryData(SESSION_QUERY_KEY, next);
		},
		[queryClient],
	);

	const refreshSignedInState = useCallback(async () => {
		try {
			await replaceSignedInState(await fetchSignedInState());
		} catch {
			// The action itself succeeded, so do not report it as failed: look the session up again
			// in the background instead.
			await queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
		}
	}, [queryClient, replaceSignedInState]);

	// The actions throw an AuthActionError (lib/account/auth-errors.ts) when the server refuses; their
	// errors are converted in the auth client's module, which loads with the first action.
	const signIn = useCallback(
		async (credentials: Credentials) => {
			await (await loadAuthActions()).signIn(credentials);
			await refreshSignedInState();
		},
		[refreshSignedInState],
	);

	const signUp = useCallback(
		async (credentials: Credentials) => {
			await (await loadAuthActions()).signUp(credentials);
			await refreshSignedInState();
		},
		[refreshSignedInState],
	);

	const signInWithGoogle = useCallback(async () => {
		await (await loadAuthActions()).signInWithGoogle();
	}, []);

	const forgetSession = useCallback(async () => {
		// Drop everything cached for the previous user, but keep the session query itself: the
		// provider observes it, and removing it would detach the observer.
		queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] });
		await replaceSignedInState(null);
	}, [queryClient, replaceSignedInState]);

	const signOut = useCallback(async () => {
		await (await loadAuthActions()).signOut();
		await forgetSession();
	}, [forgetSession]);

	const value = useMemo<AuthContextValue>(
		() => ({
			user: signedIn?.user ?? null,
			session: signedIn?.session ?? null,
			isLoading: sessionQuery.isPending,
			isAdmin: signedIn?.user.isAdmin ?? false,
			signUp,
			signIn,
			signInWithGoogle,
			signOut,
			refreshSession: refreshSignedInState,
			forgetSession,
		}),
		[
			signedIn,
			sessionQuery.isPending,
			signUp,
			signIn,
			signInWithGoogle,
			signOut,
			refreshSignedInState,
			forgetSession,
		],
	);

	return <AuthContext value={value}>{children}</AuthContext>;
}

/** The signed-in user, the session and the auth actions; only inside an AuthProvider. */
export function useAuth(): AuthContextValue {
	const value = use(AuthContext);
	if (!value) throw new Error("useAuth must be used inside an AuthProvider");
	return value;
}
