import { act, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { lazyScreen, useIsScreenLoading } from "./lazy-screen";

function LoadingProbe() {
	return <p>{useIsScreenLoading() ? "A screen is loading" : "Nothing is loading"}</p>;
}

function LoadedScreen() {
	return <p>The screen</p>;
}

describe("screens loaded on first use", () => {
	it("say a screen is loading until its code arrives, and load it once", async () => {
		let loads = 0;
		let deliver: () => void = () => {};
		const delivered = new Promise<void>((resolve) => {
			deliver = resolve;
		});
		const Screen = lazyScreen(async () => {
			loads += 1;
			await delivered;
			return LoadedScreen;
		});
		const view = render(
			<>
				<LoadingProbe />
				<Suspense fallback={<p>Waiting</p>}>
					<Screen />
				</Suspense>
			</>,
		);

		expect(await screen.findByText("A screen is loading")).toBeInTheDocument();
		expect(screen.getByText("Waiting")).toBeInTheDocument();

		await act(async () => deliver());
		expect(await screen.findByText("The screen")).toBeInTheDocument();
		expect(screen.getByText("Nothing is loading")).toBeInTheDocument();

		view.rerender(
			<>
				<LoadingProbe />
				<Suspense fallback={<p>Waiting</p>}>
					<Screen />
					<Screen />
				</Suspense>
			</>,
		);
		expect(screen.getAllByText("The screen")).toHaveLength(2);
		expect(loads).toBe(1);
	});
});
