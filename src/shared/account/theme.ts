// Which theme a page paints in, decided before its first paint (docs/decisions/035-dark-mode.md).
// The script below is a string the page carries inline, its hash in the Content-Security-Policy
// (server/app.ts); vite.config.ts puts it first in index.html's head.
import type { ThemeChoice } from "./account-settings";

export type Theme = "light" | "dark";

/** Where the browser keeps the theme chosen: this device's copy of the account's setting. */
export const THEME_STORAGE_KEY = "atelier-theme";

export const DARK_SCHEME_QUERY = "(prefers-color-scheme: dark)";

/** The theme to paint: the one chosen, else the system's. */
export function decideTheme(choice: string | null, isSystemDark: boolean): Theme {
	if (choice === "light" || choice === "dark") return choice;
	return isSystemDark ? "dark" : "light";
}

/** A stored value as a choice: anything else (nothing stored, an old value) is the system's. */
export function readThemeChoice(stored: string | null): ThemeChoice {
	return stored === "light" || stored === "dark" ? stored : "system";
}

/**
 * decideTheme as the page's first script: sets `data-theme` on <html> (styles.css's dark palette
 * and `color-scheme` follow it) before anything paints, and again when the system's scheme changes
 * or another tab chooses. Kept to a few hundred bytes; theme.test.ts holds it to decideTheme.
 */
export const THEME_SCRIPT = `(function(){var d=document.documentElement,m=matchMedia("${DARK_SCHEME_QUERY}");function a(){var c=null;try{c=localStorage.getItem("${THEME_STORAGE_KEY}")}catch(e){}d.dataset.theme=c==="light"||c==="dark"?c:m.matches?"dark":"light"}a();m.addEventListener("change",a);addEventListener("storage",a)})()`;
