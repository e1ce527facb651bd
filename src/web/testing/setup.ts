import "@testing-library/jest-dom/vitest";
import { File as NodeFile } from "node:buffer";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
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

// The tests' fetch is Node's, which sends only its own FormData as multipart (jsdom's would go as
// the text "[object FormData]") and reads only its own File as a stream; in a browser, fetch,
// FormData and File belong together in the same way. Node's FormData is the class of what its
// Response reads from a form; made from a <form>, it takes the form's fields as jsdom reads them.
globalThis.File = NodeFile as unknown as typeof File;
const JsdomFormData = globalThis.FormData;
const NodeFormData = (
	await new Response("", {
		headers: { "Content-Type": "application/x-www-form-urlencoded" },
	}).formData()
).constructor as typeof FormData;
class TestFormData extends NodeFormData {
	constructor(form?: HTMLFormElement) {
		super();
		if (form) for (const [name, value] of new JsdomFormData(form)) this.append(name, value);
	}
}
globalThis.FormData = TestFormData;

// jsdom draws nothing: without a 2D context the usage charts leave their tables to speak (jsdom's
// own getContext would report itself as not implemented on every chart).
HTMLCanvasElement.prototype.getContext = (() => null) as HTMLCanvasElement["getContext"];

beforeAll(() => mswServer.listen({ onUnhandledRequest: "error" }));
// The history counts "today" and groups by day in local time: run just after midnight, a test's
// generation made "an hour ago" was yesterday's, and its counts and groups came out otherwise.
// Every test runs at noon today instead, the clock moving on in real time (only Date is faked;
// the timers stay real).
beforeEach(() => {
	const noon = new Date();
	noon.setHours(12, 0, 0, 0);
	vi.useFakeTimers({ toFake: ["Date"], now: noon, shouldAdvanceTime: true });
});
afterEach(() => {
	cleanup();
	mswServer.resetHandlers();
	vi.useRealTimers();
});
afterAll(() => mswServer.close());
