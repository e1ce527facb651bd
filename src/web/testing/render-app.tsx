import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ReactNode, useLayoutEffect } from "react";
import { type Location, MemoryRouter, useLocation } from "react-router";
import { AppRoutes } from "../app/routes/router";
import { AppProviders } from "../app/shell/providers";

function createTestQueryClient(): QueryClient {
	// No retries: a failing request should show its failure at once, not after a back-off.
	return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** Renders `ui` inside the real app providers (query cache, auth, toasts). */
export function renderWithProviders(ui: ReactNode) {
	const queryClient = createTestQueryClient();
	const user = userEvent.setup();
	const view = render(<AppProviders queryClient={queryClient}>{ui}</AppProviders>);
	return { ...view, user, queryClient };
}

/** Renders the real app, routes and providers included, in a memory router at `path`. */
export function renderApp({ path = "/" }: { path?: string } = {}) {
	let location: Location | undefined;
	// Notes the location each time the router commits one, as the address bar would show it.
	function LocationProbe() {
		const current = useLocation();
		useLayoutEffect(() => {
			location = current;
		}, [current]);
		return null;
	}
	const view = renderWithProviders(
		<MemoryRouter initialEntries={[path]}>
			<AppRoutes />
			<LocationProbe />
		</MemoryRouter>,
	);
	/** Where the app is now: path, search and hash. */
	const readLocation = () => {
		if (!location) throw new Error("the router has not rendered yet");
		const { pathname, search, hash } = location;
		return `${pathname}${search}${hash}`;
	};
	return { ...view, readLocation };
}
