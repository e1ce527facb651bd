// A simulated page's one stream of its generations (GET /api/generations/events), as the web app
// keeps it (src/web/lib/generations/generation-stream.ts): opened once signed in, opened again after the
// `retry:` it was sent whenever the server ends it. A server without the route (an earlier
// release's build) answers 404, and the person polls as that build's page did.

import { type Agent, request } from "undici";

export type GenerationAnswer = { status?: string; progress?: unknown; version?: string };

type Sample = { route: string; status: string; ms: number };

const ROUTE = "GET /api/generations/events";

export class PageStream {
	private readonly answers = new Map<string, GenerationAnswer>();
	private readonly eventCounts = new Map<string, number>();
	private readonly listeners = new Set<() => void>();
	private activeIds: string[] = [];
	private readonly closing = new AbortController();
	private retryMs = 2_000;
	/** Whether the server offers the stream; known once the first one answered. */
	isAvailable = false;

	constructor(
		private readonly origin: string,
		private readonly headers: () => Record<string, string>,
		private readonly dispatcher: Agent,
		private readonly samples: Sample[],
	) {}

	/** Opens the stream and keeps it open; resolves once the first answer says whether there is one. */
	open(): Promise<boolean> {
		return new Promise((resolve) => {
			let isFirst = true;
			const answerFirst = (isAvailable: boolean) => {
				if (!isFirst) return;
				isFirst = false;
				this.isAvailable = isAvailable;
				resolve(isAvailable);
			};
			void (async () => {
				while (!this.closing.signal.aborted) {
					const started = performance.now();
					try {
						const response = await request(new URL("/api/generations/events", this.origin), {
							headers: { ...this.headers(), accept: "text/event-stream" },
							signal: this.closing.signal,
							dispatcher: this.dispatcher,
						});
						this.samples.push({
							route: ROUTE,
							status: String(response.statusCode),
							ms: performance.now() - started,
						});
						if (response.statusCode !== 200) {
							await response.body.dump();
							if (isFirst) {
								answerFirst(false);
								return;
							}
						} else {
							answerFirst(true);
							await this.read(response.body);
						}
					} catch {
						if (this.closing.signal.aborted) return;
						this.samples.push({
							route: ROUTE,
							status: "network error",
							ms: performance.now() - started,
						});
						answerFirst(false);
					}
					await new Promise((wake) => setTimeout(wake, this.retryMs));
				}
			})();
		});
	}

	private async read(body: AsyncIterable<Buffer>) {
		let buffered = "";
		for await (const chunk of body) {
			buffered += chunk.toString("utf8");
			let end = buffered.indexOf("\n\n");
			while (end >= 0) {
				this.take(buffered.slice(0, end));
				buffered = buffered.slice(end + 2);
				end = buffered.indexOf("\n\n");
			}
			for (const listener of [...this.listeners]) listener();
		}
	}

	private take(block: string) {
		let event = "message";
		let id = "";
		let data = "";
		for (const line of block.split("\n")) {
			if (line.startsWith("retry: ")) this.retryMs = Number(line.slice(7)) || this.retryMs;
			else if (line.startsWith("event: ")) event = line.slice(7);
			else if (line.startsWith("id: ")) id = line.slice(4);
			else if (line.startsWith("data: ")) data += line.slice(6);
		}
		if (event === "active") this.activeIds = (JSON.parse(data) as { ids: string[] }).ids;
		if (event === "generation" && id) {
			this.answers.set(id, JSON.parse(data) as GenerationAnswer);
			this.eventCounts.set(id, (this.eventCounts.get(id) ?? 0) + 1);
		}
	}

	/** The events received for one generation. */
	eventsFor(id: string): number {
		return this.eventCounts.get(id) ?? 0;
	}

	/**
	 * Resolves with the generation's final answer, or "left" when it left the stream's list without
	 * one (it ended while the stream reconnected: the page asks its status route once), or
	 * "timeout" at `deadline`.
	 */
	waitForEnd(id: string, deadline: number): Promise<GenerationAnswer | "left" | "timeout"> {
		return new Promise((resolve) => {
			let isListed = false;
			const check = () => {
				const answer = this.answers.get(id);
				if (answer?.status === "completed" || answer?.status === "failed") return done(answer);
				if (this.activeIds.includes(id) || answer) isListed = true;
				else if (isListed) return done("left");
				if (Date.now() > deadline) done("timeout");
			};
			const timer = setInterval(check, 1_000);
			const done = (outcome: GenerationAnswer | "left" | "timeout") => {
				clearInterval(timer);
				this.listeners.delete(check);
				this.answers.delete(id);
				resolve(outcome);
			};
			this.listeners.add(check);
			check();
		});
	}

	close() {
		this.closing.abort();
	}
}
