import type { QueryClient } from "@tanstack/react-query";
import { type ReactNode, StrictMode } from "react";
import { ErrorBoundary } from "./error-boundary";
import { AppProviders } from "./providers";

type AppProps = {
	queryClient: QueryClient;
	/** The router with the app's routes: BrowserRouter in the browser, StaticRouter when prerendering. */
	children: ReactNode;
};

/** The whole app around its router; the browser and the prerender render the same tree. */
export function App({ queryClient, children }: AppProps) {
	return (
		<StrictMode>
			<ErrorBoundary isFullPage>
				<AppProviders queryClient={queryClient}>{children}</AppProviders>
			</ErrorBoundary>
		</StrictMode>
	);
}
