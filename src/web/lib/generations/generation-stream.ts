// The one stream of a page's generations (GET /api/generations/events): one EventSource for the
// whole page, shared by everything that follows a generation (the generator, the header's
// "1 running", the history's running cards), instead of a poll each. Opened with the first
// subscriber and closed with the last. Where it cannot open (a browser without EventSource, a
// server without the route) or breaks for good, subscribers are told it is unavailable and poll
// instead, as before.

import {
	type PollResponse,
	PollResponseSchema,
} from "../../../shared/generations/generation-responses";

export const GENERATION_STREAM_URL = "/api/generations/events";

/** What a subscriber hears. Each is called at once with what the page knows already. */
export type GenerationStreamListener = {
	/** The ids still queued or running, at each (re)connection and whenever they change. */
	onActive?: (ids: readonly string[]) => void;
	/** A generation's answer, exactly what its status route answers. */
	onGeneration?: (id: string, answer: PollResponse) => void;
	/** The stream cannot be had: follow by polling. */
	onUnavailable?: () => void;
};

// A stream that breaks this soon after it opened, this many times in a row, is given up on: the
// server answers it, but something between (a proxy) cuts it at once.
const QUICK_BREAK_MS = 5_000;
const QUICK_BREAKS_TO_GIVE_UP = 3;
// After giving up, the stream is tried again this much later by the next subscriber.
const RETRY_AFTER_UNAVAILABLE_MS = 60_000;

const listeners = new Set<GenerationStreamListener>();
const answers = new Map<string, PollResponse>();
let activeIds: readonly string[] | undefined;
let source: EventSource | undefined;
let unavailableUntil = 0;
let openedAt = 0;
let quickBreaks = 0;

function close() {
	source?.close();
	source = undefined;
	activeIds = undefined;
	answers.clear();
}

function giveUp() {
	close();
	unavailableUntil = Date.now() + RETRY_AFTER_UNAVAILABLE_MS;
	for (const listener of [...listeners]) listener.onUnavailable?.();
}

function open() {
	const stream = new EventSource(GENERATION_STREAM_URL);
	source = stream;
	stream.addEventListener("open", () => {
		openedAt = Date.now();
	});
	stream.addEventListener("active", (event) => {
		const parsed = readJson(event.data);
		const ids =
			parsed && typeof parsed === "object" && "ids" in parsed && Array.isArray(parsed.ids)
				? parsed.ids.filter((id): id is string => typeof id === "string")
				: [];
		activeIds = ids;
		// Forget what finished: the page asks the status route for anything it missed meanwhile.
		for (const id of [...answers.keys()]) if (!ids.includes(id)) answers.delete(id);
		for (const listener of [...listeners]) listener.onActive?.(ids);
	});
	stream.addEventListener("generation", (event) => {
		const parsed = PollResponseSchema.safeParse(readJson(event.data));
		const id = event.lastEventId;
		if (!parsed.success || !id) return;
		if (parsed.data.status === "queued" || parsed.data.status === "running") {
			answers.set(id, parsed.data);
		} else answers.delete(id);
		for (const listener of [...listeners]) listener.onGeneration?.(id, parsed.data);
	});
	stream.addEventListener("error", () => {
		// Closed: the server refused it (signed out, no such route). Else the browser reconnects,
		// unless the stream keeps breaking as soon as it opens.
		const isQuickBreak = openedAt > 0 && Date.now() - openedAt < QUICK_BREAK_MS;
		quickBreaks = isQuickBreak ? quickBreaks + 1 : 0;
		if (stream.readyState === EventSource.CLOSED || openedAt === 0) giveUp();
		else if (quickBreaks >= QUICK_BREAKS_TO_GIVE_UP) giveUp();
		openedAt = 0;
	});
}

function readJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * Listens to the page's stream until the returned function is called; the stream opens with the
 * first listener and closes with the last. Without one (no EventSource, or given up on),
 * `onUnavailable` is called at once.
 */
export function subscribeToGenerations(listener: GenerationStreamListener): () => void {
	listeners.add(listener);
	if (typeof EventSource === "undefined" || Date.now() < unavailableUntil) {
		listener.onUnavailable?.();
	} else if (!source) open();
	else {
		if (activeIds) listener.onActive?.(activeIds);
		for (const [id, answer] of answers) listener.onGeneration?.(id, answer);
	}
	return () => {
		listeners.delete(listener);
		if (listeners.size === 0) close();
	};
}
