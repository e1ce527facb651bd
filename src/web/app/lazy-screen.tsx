import { type ComponentType, lazy, useSyncExternalStore } from "react";

// Screens whose code loads on first use, and whether one is loading now, for the header's loading
// bar. React Router's navigations are transitions, so the screen being left stays up meanwhile.

let loadingCount = 0;
const listeners = new Set<() => void>();

function changeLoadingCount(change: 1 | -1): void {
	loadingCount += change;
	for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

/** True while the code of a screen is on its way. */
export function useIsScreenLoading(): boolean {
	return useSyncExternalStore(
		subscribe,
		() => loadingCount > 0,
		() => false,
	);
}

/**
 * A screen whose code `load` fetches the first time it shows. A failed load throws to the nearest
 * error boundary; the next render (its Try Again) loads again.
 */
export function lazyScreen(load: () => Promise<ComponentType>): ComponentType {
	const createLoader = () =>
		lazy(async () => {
			// React calls this while rendering: say so to the header once that render is over.
			queueMicrotask(() => changeLoadingCount(1));
			try {
				return { default: await load() };
			} catch (error) {
				Loader = createLoader();
				throw error;
			} finally {
				queueMicrotask(() => changeLoadingCount(-1));
			}
		});
	let Loader = createLoader();
	return function LazyScreen() {
		return <Loader />;
	};
}
