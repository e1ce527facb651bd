// The build's prerender entry (scripts/prerender-web.mjs bundles it with Vite for Node): renders a
// route to HTML with React's static prerendering, which waits for every lazy screen, for a given
// boot state. The browser hydrates that HTML with the same state (main.tsx).
import { PassThrough } from "node:stream";
import { prerenderToNodeStream } from "react-dom/static";
import { StaticRouter } from "react-router";
import type { BootState } from "../shared/account/boot-state";
import type { Language } from "../shared/i18n/languages";
import { registerCatalogue, setActiveLanguage } from "../shared/i18n/runtime";
import de from "../shared/i18n/translations/de";
import { AppRoutes } from "./app/routes/router";
import { App } from "./app/shell/app";
import { seedQueryClient } from "./app/shell/boot-state";
import { createQueryClient } from "./app/shell/providers";

export { LANGUAGES } from "../shared/i18n/languages";
export { PRERENDERED_PAGES } from "./app/routes/pages";

registerCatalogue("de", de);

/**
 * The HTML of the app at `path`, as the browser's first render with `state` in `language` would
 * make it (the browser loads that language's messages before it hydrates, lib/account/page-language.ts).
 */
export async function renderPage(
	path: string,
	state: BootState,
	language: Language,
): Promise<string> {
	setActiveLanguage(language);
	const queryClient = createQueryClient();
	seedQueryClient(queryClient, state);
	const { prelude } = await prerenderToNodeStream(
		<App queryClient={queryClient}>
			<StaticRouter location={path}>
				<AppRoutes />
			</StaticRouter>
		</App>,
		{
			// Every Suspense boundary in place, however long the page: past this many bytes React would
			// move a boundary's HTML to the end of the page, with a script to put it back, which the
			// CSP forbids (the notes under Generate, whose code loads after the page's, are one).
			progressiveChunkSize: Number.POSITIVE_INFINITY,
			onError(error) {
				throw error;
			},
		},
	);
	const chunks: Buffer[] = [];
	for await (const chunk of prelude.pipe(new PassThrough())) chunks.push(Buffer.from(chunk));
	queryClient.clear();
	return Buffer.concat(chunks).toString("utf8");
}
