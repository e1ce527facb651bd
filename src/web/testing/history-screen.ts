import { screen } from "@testing-library/react";
import { toast } from "sonner";
import { vi } from "vitest";
import { createTestUser, startFakeAuthServer, type TestUser } from "./fakes/fake-auth-server";
import { renderApp } from "./render-app";

// What the history's screen tests share: opening the screen signed in, finding its cards, and an
// IntersectionObserver the test drives.

/** Stands in for the browser's IntersectionObserver, which jsdom lacks; the test says when. */
export class FakeIntersectionObserver {
	static instances = new Set<FakeIntersectionObserver>();
	readonly targets = new Set<Element>();
	constructor(private readonly callback: IntersectionObserverCallback) {
		FakeIntersectionObserver.instances.add(this);
	}
	observe(target: Element) {
		this.targets.add(target);
	}
	unobserve(target: Element) {
		this.targets.delete(target);
	}
	disconnect() {
		this.targets.clear();
		FakeIntersectionObserver.instances.delete(this);
	}
	takeRecords(): IntersectionObserverEntry[] {
		return [];
	}
	/** As if the person scrolled the end of the list into view. */
	static scrollToEnd() {
		for (const observer of FakeIntersectionObserver.instances) {
			const entries = [...observer.targets].map(
				(target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry,
			);
			if (entries.length > 0) {
				observer.callback(entries, observer as unknown as IntersectionObserver);
			}
		}
	}
}

/** For `beforeEach`: the history's footer watches for the end of the list. */
export function setUpHistoryScreen(): void {
	vi.stubGlobal("IntersectionObserver", FakeIntersectionObserver);
}

/** For `afterEach`: toasts live in the toast library's module state and would reappear. */
export function cleanUpHistoryScreen(): void {
	toast.dismiss();
	FakeIntersectionObserver.instances.clear();
	vi.unstubAllGlobals();
	vi.restoreAllMocks();
}

/** The real app at `path` (the history unless told), signed in as a new person or the admin. */
export function openHistory(
	options: { isAdmin?: boolean; path?: string; user?: Partial<TestUser> } = {},
) {
	const user = createTestUser({ isAdmin: options.isAdmin ?? false, ...options.user });
	startFakeAuthServer({ signedInAs: user });
	return { ...renderApp({ path: options.path ?? "/generations" }), signedInUser: user };
}

/** Every drawn card, once the first has shown. */
export async function findCards(): Promise<HTMLElement[]> {
	await screen.findAllByRole("article");
	return screen.getAllByRole("article");
}

export function findCard(prompt: string): HTMLElement {
	return screen.getByRole("article", { name: prompt });
}

/** The prompts of `cards`, in order. */
export function readPrompts(cards: HTMLElement[]): (string | null | undefined)[] {
	return cards.map((card) => card.querySelector("p[id]")?.textContent);
}

export function hoursAgo(hours: number): string {
	return new Date(Date.now() - hours * 60 * 60 * 1000).toISOString();
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function daysAgoAtNoon(days: number): string {
	const date = new Date(Date.now() - days * DAY_MS);
	date.setHours(12, 0, 0, 0);
	return date.toISOString();
}
