/** One Server-Sent Event as a browser's EventSource would hand it over, or a comment line. */
export type StreamEvent =
	| { kind: "event"; event: string; id: string | undefined; data: string; at: number }
	| { kind: "comment"; text: string; at: number }
	| { kind: "retry"; ms: number; at: number };

/**
 * Reads an event stream's body as it arrives, keeping every event with the time it came, so a
 * test can wait for one that matches and count what came meanwhile. `ended` resolves when the
 * server ends the stream.
 */
export function readEventStream(response: Response) {
	const body = response.body;
	if (!body) throw new Error("the answer has no body");
	const reader = body.pipeThrough(new TextDecoderStream()).getReader();
	const received: StreamEvent[] = [];
	const listeners = new Set<() => void>();
	let isEnded = false;
	const parseBlock = (block: string) => {
		const at = Date.now();
		let event = "message";
		let id: string | undefined;
		const data: string[] = [];
		for (const line of block.split("\n")) {
			if (line.startsWith(":")) received.push({ kind: "comment", text: line.slice(1).trim(), at });
			else if (line.startsWith("retry: "))
				received.push({ kind: "retry", ms: Number(line.slice(7)), at });
			else if (line.startsWith("event: ")) event = line.slice(7);
			else if (line.startsWith("id: ")) id = line.slice(4);
			else if (line.startsWith("data: ")) data.push(line.slice(6));
		}
		if (data.length > 0) received.push({ kind: "event", event, id, data: data.join("\n"), at });
	};
	const ended = (async () => {
		let buffered = "";
		try {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				buffered += value;
				let end = buffered.indexOf("\n\n");
				while (end >= 0) {
					parseBlock(buffered.slice(0, end));
					buffered = buffered.slice(end + 2);
					end = buffered.indexOf("\n\n");
				}
				for (const listener of [...listeners]) listener();
			}
		} catch {
			// Cancelled by the test.
		} finally {
			isEnded = true;
			for (const listener of [...listeners]) listener();
		}
	})();

	/** The first event from `from` on that `matches`, waiting up to `timeoutMs` for it. */
	async function waitFor(
		matches: (event: StreamEvent) => boolean,
		timeoutMs = 10_000,
		from = 0,
	): Promise<StreamEvent> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const found = received.slice(from).find(matches);
			if (found) return found;
			if (isEnded) throw new Error("the stream ended before the event came");
			const remaining = deadline - Date.now();
			if (remaining <= 0) {
				throw new Error(
					`no such event within ${timeoutMs} ms; received ${JSON.stringify(received)}`,
				);
			}
			await new Promise<void>((resolve) => {
				const listener = () => {
					listeners.delete(listener);
					clearTimeout(timer);
					resolve();
				};
				const timer = setTimeout(listener, remaining);
				listeners.add(listener);
			});
		}
	}

	return {
		received,
		ended,
		waitFor,
		/** The poll answers received for one generation, in order. */
		answersFor(id: string): unknown[] {
			return received.flatMap((event) =>
				event.kind === "event" && event.event === "generation" && event.id === id
					? [JSON.parse(event.data)]
					: [],
			);
		},
		async close() {
			await reader.cancel().catch(() => {});
			await ended;
		},
	};
}

export type EventStreamReader = ReturnType<typeof readEventStream>;

/** Whether `event` is a generation's answer, of `id`, that `matches` (its parsed data). */
export function isGenerationEvent(
	id: string,
	matches: (answer: {
		status: string;
		progress: { position: number | null } | null;
	}) => boolean = () => true,
) {
	return (event: StreamEvent) =>
		event.kind === "event" &&
		event.event === "generation" &&
		event.id === id &&
		matches(JSON.parse(event.data));
}
