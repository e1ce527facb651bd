import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AppRoutes, preloadScreensFor } from "./app/routes/router";
import { App } from "./app/shell/app";
import { readBootState, seedQueryClient } from "./app/shell/boot-state";
import { createQueryClient } from "./app/shell/providers";
import { startInPageLanguage } from "./lib/account/page-language";
import { applyBackgroundPattern } from "./lib/ui/background-pattern";
import "./styles.css";

const rootElement = document.getElementById("root");
if (!rootElement) throw new Error("index.html has no #root element");

/** Seeds the query cache from the boot state, then hydrates the prerendered page or renders the shell. */
function start(root: HTMLElement): void {
	applyBackgroundPattern(document.body);

	const queryClient = createQueryClient();
	// The same state the server prerendered this page with, so the first render matches its HTML.
	seedQueryClient(queryClient, readBootState(document));

	const app = (
		<App queryClient={queryClient}>
			<BrowserRouter>
				<AppRoutes />
			</BrowserRouter>
		</App>
	);

	if (root.firstElementChild) {
		// A prerendered page (docs/decisions/012-prerendering-and-hydration.md): its screen's code
		// first, then hydrate as a transition, which React splits into short tasks so the page
		// answers input meanwhile (an event on a part not yet hydrated hydrates that part at once).
		// The hydration, too, starts in a task of its own.
		void preloadScreensFor(window.location.pathname).then(() => {
			setTimeout(() => {
				startTransition(() => {
					hydrateRoot(root, app);
				});
			}, 0);
		});
	} else {
		// The app shell (routes rendered in the browser only, the Vite dev server). The screen's code
		// is fetched now, beside the session lookup, rather than once the session has answered.
		void preloadScreensFor(window.location.pathname);
		createRoot(root).render(app);
	}
}

// In a task of its own, after the script's evaluation: together they made one task long enough to
// block a mid-range phone (Lighthouse's simulated 4x slower CPU counted it in total blocking time).
// The page's messages first, so the hydration finds the prerender's text (an English page waits
// for nothing).
setTimeout(() => void startInPageLanguage().then(() => start(rootElement)), 0);
