// The language chosen in the user menu and kept in the account (docs/decisions/037-languages.md).
// The server writes each page in the language this browser's cookie names (else its
// Accept-Language), so a choice is kept in the cookie and the page is loaded again in it; the
// account's choice, once read, is kept in the cookie too, so another browser follows it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { LanguageChoice } from "../../../shared/account/account-settings";
import { LANGUAGE_COOKIE, type Language } from "../../../shared/i18n/languages";
import { negotiateLanguage } from "../../../shared/i18n/negotiate-language";
import {
	ACCOUNT_SETTINGS_QUERY_KEY,
	readAccountSettings,
	updateAccountSettings,
} from "./account-settings-requests";
import { readPageLanguage } from "./page-language";

/**
 * Keeps a language in this browser for the server's next pages (undefined: its Accept-Language);
 * answers whether the page must be loaded again to be written in it: never when the browser
 * refused the cookie, whose next page would be written as this one is (a reload without end).
 */
export function storeLanguageChoice(language: Language | undefined): boolean {
	const year = 60 * 60 * 24 * 365;
	// biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser Atelier serves.
	document.cookie =
		language === undefined
			? `${LANGUAGE_COOKIE}=; path=/; max-age=0; samesite=lax`
			: `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${year}; samesite=lax`;
	const kept = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(document.cookie)?.[1];
	if (kept !== language) return false;
	const next = language ?? negotiateLanguage(navigator.languages.join(","));
	return next !== readPageLanguage();
}

function followLanguage(choice: LanguageChoice): void {
	const mustReload = storeLanguageChoice(choice === "browser" ? undefined : choice);
	if (mustReload) window.location.reload();
}

/** The account's language, and the way to choose one: saved, then the page written in it. */
export function useLanguageChoice(onError: (message: string) => void) {
	const queryClient = useQueryClient();
	const saved = useQuery({
		queryKey: ACCOUNT_SETTINGS_QUERY_KEY,
		queryFn: readAccountSettings,
		staleTime: Number.POSITIVE_INFINITY,
	});
	const accountLanguage = saved.data?.language;
	useEffect(() => {
		if (accountLanguage) followLanguage(accountLanguage);
	}, [accountLanguage]);

	const save = useMutation({
		mutationFn: (language: LanguageChoice) => updateAccountSettings({ language }),
		onSuccess: (settings) => queryClient.setQueryData(ACCOUNT_SETTINGS_QUERY_KEY, settings),
		onError: (error) => onError(error.message),
	});

	return {
		choice: accountLanguage ?? "browser",
		choose: (next: LanguageChoice) => save.mutate(next),
	};
}
