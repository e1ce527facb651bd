import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router";
import { AppProviders } from "../app/providers";
import { appRoutes } from "../app/router";

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

type RenderAppOptions = {
	/** The URL the app starts on. */
	path?: string;
	/** The route table; the app's own unless a test needs its own. */
	routes?: RouteObject[];
};

/** Renders the real app, routes and providers included, in a memory router at `path`. */
export function renderApp({ path = "/", routes = appRoutes }: RenderAppOptions = {}) {
	const router = createMemoryRouter(routes, { initialEntries: [path] });
	const view = renderWithProviders(<RouterProvider router={router} />);
	/** Where the app is now: path, search and hash. */
	const readLocation = () => {
		const { pathname, search, hash } = router.state.location;
		return `${pathname}${search}${hash}`;
	};
	return { ...view, router, readLocation };
}
