// The theme chosen on this device and in the account (docs/decisions/035-dark-mode.md). The page's
// first script (shared/account/theme.ts's THEME_SCRIPT, inline in index.html) paints from what is stored
// here; the user menu, which loads this module, changes it and keeps it in step with the account.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { ThemeChoice } from "../../../shared/account/account-settings";
import {
	DARK_SCHEME_QUERY,
	decideTheme,
	readThemeChoice,
	THEME_STORAGE_KEY,
} from "../../../shared/account/theme";
import {
	ACCOUNT_SETTINGS_QUERY_KEY,
	readAccountSettings,
	updateAccountSettings,
} from "./account-settings-requests";

/** The choice kept on this device; "system" when none is, or the browser keeps nothing. */
export function readStoredThemeChoice(): ThemeChoice {
	try {
		return readThemeChoice(localStorage.getItem(THEME_STORAGE_KEY));
	} catch {
		return "system";
	}
}

/** Keeps the choice on this device, for the next page's first paint, and paints this one in it. */
export function applyThemeChoice(choice: ThemeChoice): void {
	try {
		if (choice === "system") localStorage.removeItem(THEME_STORAGE_KEY);
		else localStorage.setItem(THEME_STORAGE_KEY, choice);
	} catch {
		// Storage refused (a private window's policy): this page still changes.
	}
	document.documentElement.dataset.theme = decideTheme(
		choice,
		window.matchMedia(DARK_SCHEME_QUERY).matches,
	);
}

/**
 * The theme chosen, and the way to choose one: at once on this device, then saved to the account.
 * The account's choice, once read, wins over this device's: it is the one made last elsewhere too.
 */
export function useThemeChoice(onError: (message: string) => void) {
	const queryClient = useQueryClient();
	const [choice, setChoice] = useState(readStoredThemeChoice);
	const saved = useQuery({
		queryKey: ACCOUNT_SETTINGS_QUERY_KEY,
		queryFn: readAccountSettings,
		staleTime: Number.POSITIVE_INFINITY,
	});
	// Another tab's choice: the page's script repaints this one (THEME_SCRIPT), the menu follows.
	useEffect(() => {
		const follow = (event: StorageEvent) => {
			if (event.key === THEME_STORAGE_KEY || event.key === null) setChoice(readStoredThemeChoice());
		};
		window.addEventListener("storage", follow);
		return () => window.removeEventListener("storage", follow);
	}, []);
	const accountTheme = saved.data?.theme;
	useEffect(() => {
		if (!accountTheme || accountTheme === readStoredThemeChoice()) return;
		applyThemeChoice(accountTheme);
		setChoice(accountTheme);
	}, [accountTheme]);

	const save = useMutation({
		mutationFn: updateAccountSettings,
		onSuccess: (settings) => queryClient.setQueryData(ACCOUNT_SETTINGS_QUERY_KEY, settings),
		onError: (error) => onError(error.message),
	});

	function choose(next: ThemeChoice) {
		applyThemeChoice(next);
		setChoice(next);
		save.mutate({ theme: next });
	}

	return { choice, choose };
}
