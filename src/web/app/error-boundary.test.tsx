import { screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startFakeAuthServer } from "../testing/fake-auth-server";
import { renderWithProviders } from "../testing/render-app";
import { ErrorBoundary, RouteErrorPage } from "./error-boundary";

type Failure = { isActive: boolean };

function FragileWidget({ failure }: { failure: Failure }) {
	if (failure.isActive) throw new Error("The widget broke");
	return <p>Widget is working</p>;
}

function WorkingRoute() {
	return <p>Route is working</p>;
}

function RouteLoading() {
	return <p>Loading route</p>;
}

describe("error boundaries", () => {
	beforeEach(() => {
		// React reports every caught render error on the console; the tests expect them.
		vi.spyOn(console, "error").mockImplementation(() => {});
		startFakeAuthServer();
	});

	afterEach(() => {
		vi.restoreAllMocks();
	});

	it("replaces a failed screen with Something went wrong, Refresh Page and Try Again", () => {
		renderWithProviders(
			<ErrorBoundary>
				<FragileWidget failure={{ isActive: true }} />
			</ErrorBoundary>,
		);

		expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
		expect(screen.getByRole("button", { name: "Refresh Page" })).toBeVisible();
		expect(screen.getByRole("button", { name: "Try Again" })).toBeVisible();
		expect(screen.queryByText("Widget is working")).not.toBeInTheDocument();
	});

	it("renders the screen again on Try Again", async () => {
		const failure: Failure = { isActive: true };
		const { user } = renderWithProviders(
			<ErrorBoundary>
				<FragileWidget failure={failure} />
			</ErrorBoundary>,
		);

		// Still broken: Try Again renders again and fails again.
		await user.click(screen.getByRole("button", { name: "Try Again" }));
		expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeVisible();

		failure.isActive = false;
		await user.click(screen.getByRole("button", { name: "Try Again" }));

		expect(screen.getByText("Widget is working")).toBeVisible();
		expect(screen.queryByText("Something went wrong")).not.toBeInTheDocument();
	});

	it("reloads the page on Refresh Page", async () => {
		const reload = vi.fn();
		vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload });
		const { user } = renderWithProviders(
			<ErrorBoundary>
				<FragileWidget failure={{ isActive: true }} />
			</ErrorBoundary>,
		);

		await user.click(screen.getByRole("button", { name: "Refresh Page" }));

		expect(reload).toHaveBeenCalledOnce();
	});

	it("shows a failed route's error page, and Try Again loads the route again", async () => {
		const failure: Failure = { isActive: true };
		const router = createMemoryRouter(
			[
				{
					path: "/",
					ErrorBoundary: RouteErrorPage,
					loader: () => {
						if (failure.isActive) throw new Error("The loader broke");
						return null;
					},
					Component: WorkingRoute,
					HydrateFallback: RouteLoading,
				},
			],
			{ initialEntries: ["/"] },
		);
		const { user } = renderWithProviders(<RouterProvider router={router} />);

		expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeVisible();
		expect(screen.getByRole("button", { name: "Refresh Page" })).toBeVisible();

		failure.isActive = false;
		await user.click(screen.getByRole("button", { name: "Try Again" }));

		expect(await screen.findByText("Route is working")).toBeVisible();
	});
});
