import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { vi } from "vitest";
import { createTestUser, startFakeAuthServer } from "./fakes/fake-auth-server";
import {
	type FakeGenerationsApiOptions,
	startFakeGenerationsApi,
} from "./fakes/fake-generations-api";
import { renderApp } from "./render-app";

// What the generator's screen tests share: opening the screen, finding its parts, and a fake clock
// for the tests about its schedule.

/** As long as Testing Library's own async limit (see the web test setup). */
const REAL_WAIT_LIMIT_MS = 5_000;

export const BUSY_TEXT = "Image will be generated soon — this may take a few moments.";

/**
 * The generations API as the generator's tests meet it: a generation started completes at its
 * first poll, unless the test scripts the polls itself.
 */
export function startGeneratorApi(options: FakeGenerationsApiOptions = {}) {
	return startFakeGenerationsApi({ polls: [{ status: "completed" }], ...options });
}

/** For `afterEach`: real timers again, and no generation remembered as dismissed. */
export function cleanUpGeneratorScreen(): void {
	vi.useRealTimers();
	vi.unstubAllGlobals();
	window.sessionStorage.clear();
}

/**
 * The real app at `/` (or `path`, such as `/?prompt=...`), signed in unless the test says
 * otherwise, once the session is known.
 */
export async function openGenerator({
	isSignedIn = true,
	path = "/",
}: {
	isSignedIn?: boolean;
	path?: string;
} = {}) {
	startFakeAuthServer(isSignedIn ? { signedInAs: createTestUser() } : {});
	const view = renderApp({ path });
	await screen.findByRole("link", { name: isSignedIn ? /View Generations/ : "Sign In" });
	// The settings follow the first paint with the models: a test starts once they are there. Their
	// modules are transformed on first import, beside the notes' and the prefetched flow's, which a
	// busy machine takes more than the default wait for.
	await screen.findByRole("radiogroup", { name: "Images" }, { timeout: 15_000 });
	return view;
}

export function getPromptBox(): HTMLTextAreaElement {
	const box = screen.getByRole("textbox", { name: "Prompt" });
	if (!(box instanceof HTMLTextAreaElement)) throw new Error("the prompt box is not a textarea");
	return box;
}

export function getGenerateButton(): HTMLElement {
	return screen.getByRole("button", { name: /^(Generate|Generating\.\.\.)$/ });
}

export function getResultPanel(): HTMLElement {
	return screen.getByRole("region", { name: "Result" });
}

export function readProgress(): number {
	return Number(screen.getByRole("progressbar").getAttribute("aria-valuenow"));
}

/** The progress, or 0 when no progress bar is shown. */
export function readProgressOrZero(): number {
	const bar = screen.queryByRole("progressbar");
	return bar ? Number(bar.getAttribute("aria-valuenow")) : 0;
}

type ActEnvironment = { IS_REACT_ACT_ENVIRONMENT?: boolean };

/**
 * The generator, signed in, on a fake clock, for the schedule tests. Each step advances the clock,
 * then lets a real turn of the event loop pass for requests and renders, with React told it is not
 * under act() meanwhile. Testing Library waits on a timer of its own after every user-event
 * action: it advances fake timers it recognises as Jest's, so `jest` stands for vitest here.
 */
export async function openGeneratorOnFakeClock() {
	vi.useFakeTimers({
		toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
		now: new Date("2025-01-05T12:00:00.000Z"),
	});
	const advanceTimers = vi.advanceTimersByTime.bind(vi);
	vi.stubGlobal("jest", { advanceTimersByTime: advanceTimers });
	const environment = globalThis as ActEnvironment;
	const advance = async (milliseconds: number) => {
		environment.IS_REACT_ACT_ENVIRONMENT = false;
		try {
			await vi.advanceTimersByTimeAsync(milliseconds);
			await new Promise((resolve) => setImmediate(resolve));
		} finally {
			environment.IS_REACT_ACT_ENVIRONMENT = true;
		}
	};
	/**
	 * Waits, under the fake clock, until `check` passes (requests answer between the steps). The
	 * limit is real time, not a count of turns: a lazy chunk (the result gallery, the preview) is
	 * a real import that Vite transforms on first use, and on a loaded machine that takes far more
	 * turns of the event loop than a fixed count allowed. `performance` is not faked.
	 */
	const advanceUntil = async (check: () => void) => {
		const deadline = performance.now() + REAL_WAIT_LIMIT_MS;
		while (performance.now() < deadline) {
			try {
				check();
				return;
			} catch {
				await advance(0);
			}
		}
		check();
	};

	startFakeAuthServer({ signedInAs: createTestUser() });
	renderApp({ path: "/" });
	await advanceUntil(() => screen.getByRole("link", { name: /View Generations/ }));
	const user = userEvent.setup({ advanceTimers });
	return { user, advance, advanceUntil };
}
