import { skipToContent } from "../../../shared/i18n/messages";
import { ScreenOutlet } from "./screen-outlet";
import { SiteHeader } from "./site-header";

/** The layout of / and its nested screens: header, then the screen. */
export function LayoutShell() {
	return (
		<div className="flex min-h-dvh flex-col">
			<a
				href="#main-content"
				className="sr-only rounded-lg bg-white px-3 py-2 text-sm font-medium text-accent-700 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 z-menu"
			>
				{skipToContent()}
			</a>
			<SiteHeader />
			<main
				id="main-content"
				tabIndex={-1}
				className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none sm:px-6 sm:py-12 lg:px-8"
			>
				<ScreenOutlet />
			</main>
		</div>
	);
}
