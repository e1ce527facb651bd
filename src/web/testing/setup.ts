import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeAll } from "vitest";
import { mswServer } from "./msw-server";

// Lazy chunks (the user menu, the generation flow) load through dynamic imports; on a loaded
// two-core CI machine that can take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks these browser APIs, which Radix primitives call.
if (!Element.prototype.hasPointerCapture) {
	Element.prototype.hasPointerCapture = () => false;
}
if (!Element.prototype.setPointerCapture) {
	Element.prototype.setPointerCapture = () => {};
}
if (!Element.prototype.releasePointerCapture) {
	Element.prototype.releasePointerCapture = () => {};
}
if (!Element.prototype.scrollIntoView) {
	Element.prototype.scrollIntoView = () => {};
}
if (!("ResizeObserver" in globalThis)) {
	class ResizeObserverStub implements ResizeObserver {
		observe(): void {}
		unobserve(): void {}
		disconnect(): void {}
	}
	globalThis.ResizeObserver = ResizeObserverStub;
}
if (!window.matchMedia) {
	window.matchMedia = (query: string): MediaQueryList => ({
		matches: false,
		media: query,
		onchange: null,
		addListener: () => {},
		removeListener: () => {},
		addEventListener: () => {},
		removeEventListener: () => {},
		dispatchEvent: () => false,
	});
}

beforeAll(() => mswServer.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
	cleanup();
	mswServer.resetHandlers();
});
afterAll(() => mswServer.close());
