import { screen } from "@testing-library/react";
import { Suspense } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { renderWithProviders } from "../../testing/render-app";
import { ErrorBoundary } from "./error-boundary";
import { lazyScreen } from "./lazy-screen";

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

	it("shows a screen whose code failed to load as failed, and Try Again loads it again", async () => {
		const failure: Failure = { isActive: true };
		const FlakyRoute = lazyScreen(async () => {
			if (failure.isActive) throw new Error("The screen's code did not load");
			return WorkingRoute;
		});
		const { user } = renderWithProviders(
			<ErrorBoundary>
				<Suspense fallback={<RouteLoading />}>
					<FlakyRoute />
				</Suspense>
			</ErrorBoundary>,
		);

		expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeVisible();
		expect(screen.getByRole("button", { name: "Refresh Page" })).toBeVisible();

		failure.isActive = false;
		await user.click(screen.getByRole("button", { name: "Try Again" }));

		expect(await screen.findByText("Route is working")).toBeVisible();
	});
});
