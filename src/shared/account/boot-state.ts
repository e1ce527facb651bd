// What the server tells a page at its start, in a non-executable JSON element of the HTML (the
// content security policy allows no inline script): whether anyone can be signed in, and the public
// config. The prerendered screens are rendered for each case, and the browser hydrates them with
// the same state (docs/decisions/012-prerendering-and-hydration.md). Plain types: the first page
// reads this by hand.
import type { Language } from "../i18n/languages";
import type { PublicConfig } from "./session";

/**
 * `signed-out`: the request carried no session cookie, so nobody is signed in. `unknown`: it did,
 * and the session lookup (preloaded with the page) says whose it is.
 */
type SessionHint = "signed-out" | "unknown";

export type BootState = { session: SessionHint; config: PublicConfig };

/** The id of the `<script type="application/json">` element holding the BootState. */
export const BOOT_STATE_ELEMENT_ID = "boot-state";

/**
 * The attribute the server puts on `<html>` when Enhance is on: the prerendered generator, written
 * without the config, shows the Enhance row's reserved place by it (web settings-frame.tsx).
 */
export const ENHANCE_ROOT_ATTRIBUTE = "data-enhance";

/** Where the server puts the boot state and the session preload in the head of every page. */
export const BOOT_STATE_PLACEHOLDER = "<!--app-boot-state-->";

/**
 * Dispatched on `document` once the app has hydrated a prerendered page: a button clicked before
 * then had no handler, and the page's loader clicks it again (src/web/first-paint-loader.ts).
 */
export const APP_HYDRATED_EVENT = "atelier:hydrated";

/**
 * The screens' prerendered variants: the session hint, whether the offline engine is on, and the
 * language the page is written in (docs/decisions/037-languages.md).
 */
type PrerenderVariant = `${SessionHint}.${"offline-engine" | "image-service"}.${Language}`;

export function readPrerenderVariant(state: BootState, language: Language): PrerenderVariant {
	return `${state.session}.${state.config.imageProvider === "local" ? "offline-engine" : "image-service"}.${language}`;
}

/** Every prerendered page, as the build writes it to `pages.json` beside index.html. */
export type PagesManifest = {
	pages: Array<{
		name: string;
		/** The paths this page answers; none for the 404 page, which answers every unknown path. */
		paths: string[];
		status: 200 | 404;
		/** The HTML file of each variant, relative to the web root. */
		files: Record<PrerenderVariant, string>;
	}>;
};
