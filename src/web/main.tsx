import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App } from "./app/app";
import { readBootState, seedQueryClient } from "./app/boot-state";
import { createQueryClient } from "./app/providers";
import { AppRoutes, preloadScreensFor } from "./app/router";
import { applyBackgroundPattern } from "./lib/background-pattern";
import "./styles.css";

const rootElement = document.getElementById("root");
if (!rootElement) throw new Error("index.html has no #root element");

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

if (rootElement.firstElementChild) {
	// A prerendered page (docs/decisions/012-prerendering-and-hydration.md): its screen's code
	// first, then hydrate as a transition, which React splits into short tasks so the page answers
	// input meanwhile (an event on a part not yet hydrated hydrates that part at once).
	// In a task of its own, after the script's evaluation, so neither makes a long task.
	void preloadScreensFor(window.location.pathname).then(() => {
		setTimeout(() => {
			startTransition(() => {
				hydrateRoot(rootElement, app);
			});
		}, 0);
	});
} else {
	// The app shell (routes rendered in the browser only, the Vite dev server).
	createRoot(rootElement).render(app);
}
