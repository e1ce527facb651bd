import { act } from "@testing-library/react";
import { vi } from "vitest";
import type { Generation, PollResponse } from "../../../shared/generations/generation-responses";

// A stand-in for the browser's EventSource, which jsdom lacks: the page's stream of its
// generations (GET /api/generations/events) as the test says, with the server's event names
// (`active`, `generation`) and JSON data. Without it every component test follows by polling.

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

/** The status route's answer for `generation`, which a `generation` event carries. */
export function toPollResponse(generation: Generation): PollResponse {
	return {
		status: generation.status,
		results: generation.images.map((image) => image.url),
		message: generation.status === "failed" ? (generation.error ?? "Generation failed") : null,
		progress: generation.progress ?? null,
		model: generation.model,
		settings: generation.settings,
		version: `${generation.status} ${JSON.stringify(generation.progress ?? null)}`,
	};
}

/**
 * Installs an EventSource the test drives (until `vi.unstubAllGlobals()`): each one the page
 * opens is recorded, and the returned controls speak through the newest still open.
 */
export function installFakeEventSource() {
	const opened: FakeEventSource[] = [];

	class FakeEventSource extends EventTarget {
		static readonly CONNECTING = CONNECTING;
		static readonly OPEN = OPEN;
		static readonly CLOSED = CLOSED;
		readonly CONNECTING = CONNECTING;
		readonly OPEN = OPEN;
		readonly CLOSED = CLOSED;
		readyState: number = CONNECTING;
		readonly withCredentials = false;
		constructor(readonly url: string) {
			super();
			opened.push(this);
		}
		close() {
			this.readyState = CLOSED;
		}
	}

	vi.stubGlobal("EventSource", FakeEventSource);

	const current = (): FakeEventSource => {
		const stream = opened.at(-1);
		if (!stream || stream.readyState === CLOSED) throw new Error("the page has no stream open");
		return stream;
	};
	// Listeners set React state: each event is delivered inside act, as a real one would be
	// between renders.
	const dispatch = (stream: FakeEventSource, event: Event) => {
		act(() => {
			stream.dispatchEvent(event);
		});
	};

	return {
		/** The URL of every stream the page opened, in order. */
		readOpenedUrls: () => opened.map((stream) => stream.url),
		/** Whether the page holds a stream open now. */
		isOpen: () => opened.some((stream) => stream.readyState !== CLOSED),
		/** The server answers the newest stream: `open`, as the browser says once it connected. */
		open() {
			const stream = current();
			stream.readyState = OPEN;
			dispatch(stream, new Event("open"));
		},
		/** `event: active`, the ids still queued or running. */
		sendActive(ids: readonly string[]) {
			dispatch(current(), new MessageEvent("active", { data: JSON.stringify({ ids }) }));
		},
		/** `event: generation` with its `id:`, carrying the status route's answer for it. */
		sendGeneration(generation: Generation) {
			dispatch(
				current(),
				new MessageEvent("generation", {
					data: JSON.stringify(toPollResponse(generation)),
					lastEventId: generation.id,
				}),
			);
		},
		/**
		 * The connection breaks: the browser says `error` and reconnects (CONNECTING), or, with
		 * `isClosed`, gives up on it (a refusal), as a real EventSource does.
		 */
		breakConnection({ isClosed = false }: { isClosed?: boolean } = {}) {
			const stream = current();
			stream.readyState = isClosed ? CLOSED : CONNECTING;
			dispatch(stream, new Event("error"));
		},
	};
}

export type FakeEventSourceControls = ReturnType<typeof installFakeEventSource>;
