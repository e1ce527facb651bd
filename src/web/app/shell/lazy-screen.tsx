import { type ComponentType, lazy, useState, useSyncExternalStore } from "react";

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

/** A screen whose code loads on first use; `preload` fetches it ahead of its first render. */
export type LazyScreen = ComponentType & { preload: () => Promise<void> };

/**
 * A screen whose code `load` fetches the first time it shows. A failed load throws to the nearest
 * error boundary; the next render (its Try Again) loads again. Once loaded (or preloaded), a new
 * mount renders the screen at once, without suspending: the browser preloads the screen of a
 * prerendered page before hydrating it, so the hydration finds its code ready.
 */
export function lazyScreen(load: () => Promise<ComponentType>): LazyScreen {
	let Loaded: ComponentType | undefined;
	const loadOnce = async () => {
		Loaded ??= await load();
		return Loaded;
	};
	const createLoader = () =>
		lazy(async () => {
			// React calls this while rendering: say so to the header once that render is over.
			queueMicrotask(() => changeLoadingCount(1));
			try {
				return { default: await loadOnce() };
			} catch (error) {
				Loader = createLoader();
				throw error;
			} finally {
				queueMicrotask(() => changeLoadingCount(-1));
			}
		});
	let Loader = createLoader();
	function LazyScreen() {
		// Chosen once per mount, so a screen first shown through the loader is never remounted.
		const [Screen] = useState(() => Loaded ?? Loader);
		return <Screen />;
	}
	return Object.assign(LazyScreen, {
		preload: async () => {
			await loadOnce();
		},
	});
}
