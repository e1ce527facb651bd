import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ASPECT_RATIOS } from "../../../shared/aspect-ratios";
import { createTestUser, startFakeAuthServer } from "../../testing/fake-auth-server";
import {
	createGate,
	createTestGeneration,
	type PollStep,
	startFakeGenerationServer,
} from "../../testing/fake-generation-server";
import { mswServer } from "../../testing/msw-server";
import { renderApp } from "../../testing/render-app";

const BUSY_TEXT = "Image will be generated soon — this may take a few moments.";

type RenderOptions = { isSignedIn?: boolean };

/** The real app at `/`, signed in unless the test says otherwise, once the session is known. */
async function openGenerator({ isSignedIn = true }: RenderOptions = {}) {
	startFakeAuthServer(isSignedIn ? { signedInAs: createTestUser() } : {});
	const view = renderApp({ path: "/" });
	await screen.findByRole("link", { name: isSignedIn ? /View Generations/ : "Sign In" });
	return view;
}

function getPromptBox(): HTMLTextAreaElement {
	const box = screen.getByRole("textbox", { name: "Prompt" });
	if (!(box instanceof HTMLTextAreaElement)) throw new Error("the prompt box is not a textarea");
	return box;
}

function getGenerateButton(): HTMLElement {
	return screen.getByRole("button", { name: /^(Generate|Generating\.\.\.)$/ });
}

function getResultPanel(): HTMLElement {
	return screen.getByRole("region", { name: "Result" });
}

function readProgress(): number {
	return Number(screen.getByRole("progressbar").getAttribute("aria-valuenow"));
}

type ActEnvironment = { IS_REACT_ACT_ENVIRONMENT?: boolean };

/**
 * Fake clocks for the schedule tests. Testing Library's async helpers (waitFor, user-event) and
 * React's async act() wait on timers of their own, which a fake clock never fires; so these tests
 * use fireEvent, and each step advances the clock, then lets a real turn of the event loop pass
 * for requests and renders, with React told it is not under act() meanwhile.
 */
function useFakeClock() {
	vi.useFakeTimers({
		toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
		now: new Date("2025-01-05T12:00:00.000Z"),
	});
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
	return { advance };
}

/** Waits, under fake timers, until `check` passes (requests answer between the steps). */
async function advanceUntil(advance: (ms: number) => Promise<void>, check: () => void) {
	for (let attempt = 0; attempt < 50; attempt += 1) {
		try {
			check();
			return;
		} catch {
			await advance(0);
		}
	}
	check();
}

afterEach(() => {
	vi.useRealTimers();
	window.sessionStorage.clear();
});

describe("the generator's left panel", () => {
	it("has a 6-row prompt box with its placeholder, a live counter and a clear button", async () => {
		const { user } = await openGenerator();
		const box = getPromptBox();

		expect(box).toHaveAttribute("rows", "6");
		expect(box).toHaveAttribute("placeholder", "Describe your vision...");
		expect(box).toHaveAttribute("maxLength", "500");
		expect(screen.getByText("0/500")).toBeVisible();

		await user.type(box, "A red fox");
		expect(screen.getByText("9/500")).toBeVisible();

		await user.click(screen.getByRole("button", { name: "Clear prompt" }));
		expect(box).toHaveValue("");
		expect(box).toHaveFocus();
		expect(screen.getByText("0/500")).toBeVisible();
	});

	it("strips angle brackets and cuts pasted text to 500 characters", async () => {
		const { user } = await openGenerator();
		const box = getPromptBox();

		await user.type(box, "a <b>bold</b> cat");
		expect(box).toHaveValue("a bbold/b cat");

		await user.clear(box);
		fireEvent.change(box, { target: { value: "x".repeat(620) } });
		expect(box).toHaveValue("x".repeat(500));
		expect(screen.getByText("500/500")).toBeVisible();
	});

	it("keeps Generate disabled while the prompt is invalid, and says why under the box", async () => {
		const { user } = await openGenerator();
		const box = getPromptBox();
		expect(getGenerateButton()).toBeDisabled();

		await user.type(box, "   ");
		expect(screen.getByText("Prompt cannot be empty")).toBeVisible();
		expect(box).toHaveAttribute("aria-invalid", "true");
		expect(getGenerateButton()).toBeDisabled();

		await user.clear(box);
		await user.type(box, "javascript:alert(1)");
		expect(screen.getByText("Prompt contains invalid content")).toBeVisible();
		expect(getGenerateButton()).toBeDisabled();

		await user.clear(box);
		await user.type(box, "a cat onmouseover=steal()");
		expect(screen.getByText("Prompt contains invalid content")).toBeVisible();

		await user.clear(box);
		await user.type(box, "A calm lake at dawn");
		expect(screen.queryByText(/^Prompt /)).not.toBeInTheDocument();
		expect(box).not.toHaveAttribute("aria-invalid");
		expect(getGenerateButton()).toBeEnabled();
	});

	it("asks a signed-out visitor to sign in, without starting anything", async () => {
		const server = startFakeGenerationServer();
		const { user } = await openGenerator({ isSignedIn: false });

		await user.type(getPromptBox(), "A castle in the clouds");
		await user.click(getGenerateButton());

		expect(await screen.findByRole("alert")).toHaveTextContent(
			"Please sign in to generate images.",
		);
		expect(within(getResultPanel()).getByRole("link", { name: "Sign In" })).toHaveAttribute(
			"href",
			"/login",
		);
		expect(server.readCreateRequests()).toEqual([]);
	});

	it("says Please enter a valid prompt when generating with an invalid one by shortcut", async () => {
		const server = startFakeGenerationServer();
		const { user } = await openGenerator();

		await user.keyboard("{Control>}{Enter}{/Control}");

		expect(await screen.findByRole("alert")).toHaveTextContent("Please enter a valid prompt.");
		expect(screen.getByText("Prompt cannot be empty")).toBeVisible();
		expect(server.readCreateRequests()).toEqual([]);
	});
});

describe("the aspect-ratio dropdown", () => {
	it("offers the six ratios, Square first and chosen, as a listbox", async () => {
		const { user } = await openGenerator();
		const combobox = screen.getByRole("combobox", { name: "Aspect ratio" });
		expect(combobox).toHaveTextContent("Square");
		expect(combobox).toHaveAttribute("aria-expanded", "false");

		await user.click(combobox);

		expect(combobox).toHaveAttribute("aria-expanded", "true");
		const listbox = screen.getByRole("listbox", { name: "Aspect ratio" });
		const options = within(listbox).getAllByRole("option");
		expect(options.map((option) => option.textContent?.replace(/\d+:\d+$/, ""))).toEqual(
			ASPECT_RATIOS.map((option) => option.label),
		);
		expect(within(listbox).getByRole("option", { name: "Square" })).toHaveAttribute(
			"aria-selected",
			"true",
		);

		await user.click(within(listbox).getByRole("option", { name: "Portrait (vertical)" }));
		expect(combobox).toHaveTextContent("Portrait (vertical)");
		expect(combobox).toHaveAttribute("aria-expanded", "false");
	});

	it("works from the keyboard: arrows, Home, End, Enter, Escape, Tab and type-ahead", async () => {
		const { user } = await openGenerator();
		const combobox = screen.getByRole("combobox", { name: "Aspect ratio" });
		const activeOption = () =>
			document.getElementById(combobox.getAttribute("aria-activedescendant") ?? "");
		combobox.focus();

		await user.keyboard("{ArrowDown}");
		expect(combobox).toHaveAttribute("aria-expanded", "true");
		expect(activeOption()).toHaveTextContent("Square");
		await user.keyboard("{ArrowDown}{ArrowDown}");
		expect(activeOption()).toHaveTextContent("Landscape (widescreen)");
		await user.keyboard("{Enter}");
		expect(combobox).toHaveTextContent("Landscape (widescreen)");
		expect(combobox).toHaveAttribute("aria-expanded", "false");

		await user.keyboard("{ArrowDown}{End}");
		expect(activeOption()).toHaveTextContent("Portrait (vertical)");
		await user.keyboard("{Home}");
		expect(activeOption()).toHaveTextContent("Square");
		await user.keyboard("{Escape}");
		expect(combobox).toHaveAttribute("aria-expanded", "false");
		expect(combobox).toHaveTextContent("Landscape (widescreen)");

		// Type-ahead opens the list on the first match; the same letter again moves to the next.
		await user.keyboard("p");
		expect(activeOption()).toHaveTextContent("Portrait (classic photo)");
		await user.keyboard("p");
		expect(activeOption()).toHaveTextContent("Portrait (vertical)");
		await user.keyboard("{Enter}");
		expect(combobox).toHaveTextContent("Portrait (vertical)");

		// Tab takes the highlighted option along and moves on.
		await user.keyboard("{ArrowUp}");
		expect(activeOption()).toHaveTextContent("Square");
		await user.keyboard("{ArrowDown}");
		await user.tab();
		expect(combobox).toHaveTextContent("Landscape (classic photo)");
		expect(combobox).not.toHaveFocus();
	});

	it("closes on a click elsewhere without changing the choice", async () => {
		const { user } = await openGenerator();
		const combobox = screen.getByRole("combobox", { name: "Aspect ratio" });

		await user.click(combobox);
		await user.keyboard("{ArrowDown}");
		await user.click(screen.getByRole("heading", { level: 1 }));

		expect(combobox).toHaveAttribute("aria-expanded", "false");
		expect(combobox).toHaveTextContent("Square");
	});
});

describe("the generator's right panel", () => {
	it("starts empty, with three example prompts that fill the box and a tip", async () => {
		const { user } = await openGenerator();
		const panel = getResultPanel();

		expect(within(panel).getByRole("heading", { name: "No images to display" })).toBeVisible();
		const examples = within(panel)
			.getAllByRole("button")
			.map((button) => button.textContent);
		expect(examples).toEqual([
			"An anime boy with blue hair --niji 6",
			"A woman soldier in a black suit, portrait photoshoot",
			"An hourglass on a study desk, steampunk, intricate details, 8k",
		]);
		expect(within(panel).getByText(/Tip:/)).toBeVisible();

		await user.click(within(panel).getByRole("button", { name: /woman soldier/ }));
		expect(getPromptBox()).toHaveValue("A woman soldier in a black suit, portrait photoshoot");
		expect(getPromptBox()).toHaveFocus();
	});

	it("says when the built-in offline engine makes the images, and not otherwise", async () => {
		startFakeGenerationServer({ imageProvider: "local" });
		await openGenerator();
		expect(await screen.findByText("Built-in offline engine.")).toBeVisible();
	});

	it("says nothing about the engine when a real provider is configured", async () => {
		const server = startFakeGenerationServer({ imageProvider: "http" });
		await openGenerator();
		await waitFor(() => expect(server.readListRequests()).toHaveLength(1));
		expect(screen.queryByText("Built-in offline engine.")).not.toBeInTheDocument();
	});
});

describe("generating", () => {
	it("shows the progress while busy, then four images with the prompt, ratio and time", async () => {
		const startGate = createGate();
		const server = startFakeGenerationServer({ startGate: startGate.opened });
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "  A lighthouse in a storm  ");
		await user.click(screen.getByRole("combobox", { name: "Aspect ratio" }));
		await user.click(screen.getByRole("option", { name: "Landscape (widescreen)" }));
		await user.click(getGenerateButton());

		expect(getGenerateButton()).toHaveTextContent("Generating...");
		expect(getGenerateButton()).toBeDisabled();
		expect(await within(getResultPanel()).findByText(BUSY_TEXT)).toBeVisible();
		expect(readProgress()).toBe(5);
		expect(screen.getByText("5%")).toHaveStyle({ left: "5%" });
		expect(screen.getByText("Elapsed")).toBeVisible();

		startGate.release();
		const panel = getResultPanel();
		expect(
			await within(panel).findByRole("heading", { name: "4 images" }, { timeout: 5_000 }),
		).toBeVisible();
		expect(server.readCreateRequests()).toEqual([
			{ prompt: "A lighthouse in a storm", aspectRatio: "--ar 16:9" },
		]);
		expect(within(panel).getByText("A lighthouse in a storm")).toBeVisible();
		expect(within(panel).getByText(/Landscape \(widescreen\)/)).toBeVisible();
		// From the saved record: created 12:00:00.000, completed 12:00:03.250.
		expect(within(panel).getByText("3.2s")).toBeVisible();
		expect(getGenerateButton()).toHaveTextContent("Generate");
		expect(getGenerateButton()).toBeEnabled();
		expect(screen.queryByText(BUSY_TEXT)).not.toBeInTheDocument();

		const gallery = within(panel).getByRole("list", { name: "Generated images" });
		const openButtons = within(gallery).getAllByRole("button", { name: /^Open image \d of 4$/ });
		expect(openButtons).toHaveLength(4);
		for (const [index, button] of openButtons.entries()) {
			const [thumbnail, full] = button.querySelectorAll("img");
			// Sizes are reserved before anything loads; the thumbnail comes first.
			expect(thumbnail).toHaveAttribute(
				"src",
				`/api/images/generations/${server.generationId}/${index}-thumb.webp`,
			);
			expect(thumbnail).toHaveAttribute("width", "384");
			expect(thumbnail).toHaveAttribute("height", "216");
			expect(full).toHaveAttribute(
				"src",
				`/api/images/generations/${server.generationId}/${index}.png`,
			);
			expect(full).toHaveAttribute("width", "1024");
			expect(full).toHaveAttribute("height", "576");
		}
		const thumbnails = within(panel).getByRole("list", { name: "Thumbnails" });
		expect(
			within(thumbnails).getAllByRole("button", { name: /^Show image \d of 4$/ }),
		).toHaveLength(4);
	});

	it("follows the progress schedule: 5, 20, then 8 more per poll up to 95, and ticks the elapsed time", async () => {
		const startGate = createGate();
		const firstPollGate = createGate();
		const polls: PollStep[] = [
			...Array.from({ length: 12 }, (): PollStep => ({ status: "running" })),
			{ status: "completed" },
		];
		const server = startFakeGenerationServer({
			startGate: startGate.opened,
			pollGates: new Map([[0, firstPollGate.opened]]),
			polls,
		});
		const { advance } = useFakeClock();
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderApp({ path: "/" });
		await advanceUntil(advance, () => screen.getByRole("link", { name: /View Generations/ }));

		fireEvent.change(getPromptBox(), { target: { value: "A clock tower" } });
		fireEvent.click(getGenerateButton());
		await advanceUntil(advance, () => expect(readProgress()).toBe(5));
		expect(screen.getByText("0ms")).toBeVisible();

		await advance(1_000);
		expect(screen.getByText("1.0s")).toBeVisible();

		// Accepted (15), then polling begins at 20 while the first poll is out.
		startGate.release();
		await advanceUntil(advance, () => expect(readProgress()).toBe(20));
		expect(screen.getByText("20%")).toHaveStyle({ left: "20%" });

		// The first "running" is news and is followed at once; later ones wait out the interval.
		firstPollGate.release();
		await advanceUntil(advance, () => expect(readProgress()).toBe(36));
		expect(server.readPollCount()).toBe(2);
		await advance(1_499);
		expect(server.readPollCount()).toBe(2);
		await advance(1);
		await advanceUntil(advance, () => expect(readProgress()).toBe(44));

		const seen = [readProgress()];
		for (let poll = 0; poll < 9; poll += 1) {
			await advance(1_500);
			seen.push(readProgress());
		}
		expect(seen).toEqual([44, 52, 60, 68, 76, 84, 92, 95, 95, 95]);
		expect(screen.getByText("95%")).toHaveStyle({ left: "95%" });

		await advance(60_000);
		await advanceUntil(advance, () =>
			expect(within(getResultPanel()).getByRole("heading", { name: "4 images" })).toBeVisible(),
		);
	});

	it("passes on what the server says while the generation waits", async () => {
		const secondPollGate = createGate();
		startFakeGenerationServer({
			polls: [
				{ status: "running", message: "The image service is busy, retrying" },
				{ status: "completed" },
			],
			pollGates: new Map([[1, secondPollGate.opened]]),
		});
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A crowded market");
		await user.click(getGenerateButton());

		expect(await screen.findByText("The image service is busy, retrying")).toBeVisible();
		expect(screen.getByRole("alert")).toBeEmptyDOMElement();
		secondPollGate.release();
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(screen.queryByText("The image service is busy, retrying")).not.toBeInTheDocument();
	});

	it("shows the elapsed time in minutes and seconds past a minute", async () => {
		const startGate = createGate();
		startFakeGenerationServer({ startGate: startGate.opened });
		const { advance } = useFakeClock();
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderApp({ path: "/" });
		await advanceUntil(advance, () => screen.getByRole("link", { name: /View Generations/ }));

		fireEvent.change(getPromptBox(), { target: { value: "A slow sunrise" } });
		fireEvent.click(getGenerateButton());
		await advanceUntil(advance, () => expect(readProgress()).toBe(5));

		await advance(59_000);
		expect(screen.getByText("59.0s")).toBeVisible();
		await advance(66_000);
		expect(screen.getByText("2m 5s")).toBeVisible();
		startGate.release();
	});

	it("shows the failure in red with an alert role and drops the progress; Try Again asks again", async () => {
		const server = startFakeGenerationServer({
			polls: [{ status: "failed", message: "The provider refused the prompt." }],
		});
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A forbidden door");
		await user.click(getGenerateButton());

		const alert = await screen.findByRole("alert");
		await waitFor(() => expect(alert).toHaveTextContent("The provider refused the prompt."));
		expect(alert.querySelector("p")).toHaveClass("text-red-800");
		expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
		expect(getGenerateButton()).toHaveTextContent("Generate");
		await user.click(within(getResultPanel()).getByRole("button", { name: "Try Again" }));
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
		expect(server.readCreateRequests()[1]).toEqual(server.readCreateRequests()[0]);
	});

	it("says Generation failed when a failure comes without a message", async () => {
		startFakeGenerationServer({ polls: [{ status: "failed", message: null }] });
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A broken vase");
		await user.click(getGenerateButton());

		await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Generation failed"));
	});

	it("shows the server's message, its code, or HTTP and the status when the start is refused", async () => {
		const cases = [
			{
				start: { kind: "refused", code: "QUOTA_EXCEEDED", message: "You already have 3 running." },
				expected: "You already have 3 running.",
			},
			{
				start: {
					kind: "raw",
					status: 400,
					body: { success: false, error: { code: "BAD", message: "" } },
				},
				expected: "BAD",
			},
			{ start: { kind: "raw", status: 502, body: null }, expected: "HTTP 502" },
			{
				start: { kind: "raw", status: 200, body: { success: false } },
				expected: "HTTP 200",
			},
			{
				start: { kind: "refused", code: "SIGN_IN_REQUIRED" },
				expected: "Please sign in to generate images.",
			},
		] as const;
		for (const { start, expected } of cases) {
			startFakeGenerationServer({ start });
			const { user, unmount } = await openGenerator();
			await user.type(getPromptBox(), "A tiny robot");
			await user.click(getGenerateButton());
			await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(expected));
			expect(readProgressOrZero()).toBe(0);
			unmount();
		}
	});

	it("reads the wider poll answers too: results as objects with url or src, and an error status", async () => {
		const server = startFakeGenerationServer({ isRecordAvailable: false });
		mswServer.use(
			http.get(`*${server.pollingUrl}`, () =>
				HttpResponse.json({
					status: "completed",
					results: [{ url: "/first.png" }, { src: "/second.png" }],
				}),
			),
		);
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A pair of herons");
		await user.click(getGenerateButton());

		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "2 images" })).toBeVisible();
		expect(
			within(panel).getByRole("button", { name: "Open image 2 of 2" }).querySelector("img"),
		).toHaveAttribute("src", "/second.png");

		mswServer.use(
			http.get(`*${server.pollingUrl}`, () =>
				HttpResponse.json({ status: "error", message: "The GPU caught fire" }),
			),
		);
		await user.click(getGenerateButton());
		await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("The GPU caught fire"));
	});

	it("says No polling URL provided when the server gives none", async () => {
		startFakeGenerationServer({ start: { kind: "accepted", pollingUrl: "" } });
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A paper boat");
		await user.click(getGenerateButton());

		await waitFor(() =>
			expect(screen.getByRole("alert")).toHaveTextContent("No polling URL provided"),
		);
	});

	it("retries a failed poll after the polling interval, saying why meanwhile", async () => {
		const server = startFakeGenerationServer({
			polls: [{ httpStatus: 503 }, { isNetworkError: true }, { status: "completed" }],
		});
		const { advance } = useFakeClock();
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderApp({ path: "/" });
		await advanceUntil(advance, () => screen.getByRole("link", { name: /View Generations/ }));

		fireEvent.change(getPromptBox(), { target: { value: "A rainy street" } });
		fireEvent.click(getGenerateButton());
		await advanceUntil(advance, () => expect(screen.getByText(/Polling HTTP 503/)).toBeVisible());
		expect(server.readPollCount()).toBe(1);
		expect(screen.queryByRole("alert")).toBeEmptyDOMElement();

		await advance(1_499);
		expect(server.readPollCount()).toBe(1);
		await advance(1);
		await advanceUntil(advance, () => expect(server.readPollCount()).toBe(2));
		await advanceUntil(advance, () =>
			expect(screen.getByText(/Network connection failed/)).toBeVisible(),
		);

		await advance(1_500);
		await advanceUntil(advance, () =>
			expect(within(getResultPanel()).getByRole("heading", { name: "4 images" })).toBeVisible(),
		);
		expect(server.readPollCount()).toBe(3);
	});

	it("gives up with Generation timed out when polls keep failing for five minutes", async () => {
		startFakeGenerationServer({ polls: [{ httpStatus: 502 }] });
		const { advance } = useFakeClock();
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderApp({ path: "/" });
		await advanceUntil(advance, () => screen.getByRole("link", { name: /View Generations/ }));

		fireEvent.change(getPromptBox(), { target: { value: "A frozen waterfall" } });
		fireEvent.click(getGenerateButton());
		await advanceUntil(advance, () => expect(screen.getByText(/Polling HTTP 502/)).toBeVisible());

		await advance(298_000);
		expect(screen.queryByRole("alert")).toBeEmptyDOMElement();
		await advance(3_000);
		await advanceUntil(advance, () =>
			expect(screen.getByRole("alert")).toHaveTextContent("Generation timed out"),
		);
	});

	it("shows the images from the poll when the saved record cannot be read, without a word", async () => {
		const server = startFakeGenerationServer({ isRecordAvailable: false });
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A desert road");
		await user.click(getGenerateButton());

		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(server.readRecordRequests()).toBe(1);
		expect(screen.getByRole("alert")).toBeEmptyDOMElement();
		const firstImage = within(panel).getByRole("button", { name: "Open image 1 of 4" });
		expect(firstImage.querySelector("img")).toHaveAttribute(
			"src",
			`/api/images/generations/${server.generationId}/0.png`,
		);
		// The elapsed time comes from this browser's clock instead: a short, known duration.
		expect(within(panel).getByText(/^\d+ms$|^\d+\.\ds$/)).toBeVisible();
	});
});

function readProgressOrZero(): number {
	const bar = screen.queryByRole("progressbar");
	return bar ? Number(bar.getAttribute("aria-valuenow")) : 0;
}

describe("cancel, reset and shortcuts", () => {
	it("cancels: polling stops, the busy state ends and Request was cancelled is shown", async () => {
		const pollGate = createGate();
		const server = startFakeGenerationServer({
			pollGates: new Map([[0, pollGate.opened]]),
		});
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A hot air balloon");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readPollCount()).toBe(1));
		await user.click(within(getResultPanel()).getByRole("button", { name: "Cancel" }));

		expect(screen.getByRole("alert")).toHaveTextContent("Request was cancelled");
		expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
		expect(getGenerateButton()).toHaveTextContent("Generate");
		expect(within(getResultPanel()).getByText(/saves them to your history/)).toBeVisible();

		pollGate.release();
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(server.readPollCount()).toBe(1);
		expect(screen.getByRole("alert")).toHaveTextContent("Request was cancelled");
		expect(getPromptBox()).toHaveValue("A hot air balloon");
	});

	it("clears the prompt and the result on Escape outside the text box, not inside it", async () => {
		startFakeGenerationServer();
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A green comet");
		await user.click(screen.getByRole("combobox", { name: "Aspect ratio" }));
		await user.click(screen.getByRole("option", { name: "Portrait (classic photo)" }));
		await user.click(getGenerateButton());
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();

		getPromptBox().focus();
		await user.keyboard("{Escape}");
		expect(getPromptBox()).toHaveValue("A green comet");
		expect(screen.getByRole("heading", { name: "4 images" })).toBeVisible();

		getGenerateButton().focus();
		await user.keyboard("{Escape}");
		expect(getPromptBox()).toHaveValue("");
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveTextContent("Square");
		expect(screen.getByRole("heading", { name: "No images to display" })).toBeVisible();
	});

	it("generates on Ctrl or Cmd + Enter outside the text box, not inside it", async () => {
		const server = startFakeGenerationServer();
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A violet sky");
		await user.keyboard("{Control>}{Enter}{/Control}");
		expect(server.readCreateRequests()).toEqual([]);

		await user.click(screen.getByRole("heading", { level: 1 }));
		await user.keyboard("{Control>}{Enter}{/Control}");
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();

		await user.keyboard("{Meta>}{Enter}{/Meta}");
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(2));
	});

	it("focuses the prompt on Ctrl or Cmd + K", async () => {
		const { user } = await openGenerator();

		await user.click(screen.getByRole("heading", { level: 1 }));
		await user.keyboard("{Control>}k{/Control}");
		expect(getPromptBox()).toHaveFocus();

		screen.getByRole("combobox", { name: "Aspect ratio" }).focus();
		await user.keyboard("{Meta>}k{/Meta}");
		expect(getPromptBox()).toHaveFocus();
	});

	it("drops the generation of the previous account on sign-out", async () => {
		const pollGate = createGate();
		startFakeGenerationServer({ pollGates: new Map([[0, pollGate.opened]]) });
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A secret garden");
		await user.click(getGenerateButton());
		expect(await screen.findByText(BUSY_TEXT)).toBeVisible();

		await user.click(await screen.findByRole("button", { name: "Account menu" }));
		await user.click(await screen.findByRole("menuitem", { name: "Sign Out" }));
		await user.click(
			within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Sign Out" }),
		);

		expect(await screen.findByRole("link", { name: "Sign In" })).toBeVisible();
		expect(screen.queryByText(BUSY_TEXT)).not.toBeInTheDocument();
		expect(screen.getByRole("heading", { name: "No images to display" })).toBeVisible();
		pollGate.release();
	});

	it("does not clear anything when Escape closes the dropdown", async () => {
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A quiet harbour");
		await user.click(screen.getByRole("combobox", { name: "Aspect ratio" }));

		await user.keyboard("{Escape}");

		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveAttribute(
			"aria-expanded",
			"false",
		);
		expect(getPromptBox()).toHaveValue("A quiet harbour");
	});
});

describe("picking a generation up again", () => {
	it("shows a generation still running on the server in progress, then its images", async () => {
		const pollGate = createGate();
		const running = createTestGeneration({
			prompt: "A ship in a bottle",
			aspect_ratio: "--ar 2:3",
			status: "running",
		});
		startFakeGenerationServer({
			history: [running],
			pollGates: new Map([[0, pollGate.opened]]),
		});
		await openGenerator();

		expect(await screen.findByText(BUSY_TEXT)).toBeVisible();
		expect(readProgress()).toBe(20);
		expect(getPromptBox()).toHaveValue("A ship in a bottle");
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveTextContent(
			"Portrait (classic photo)",
		);

		pollGate.release();
		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(within(panel).getByText("A ship in a bottle")).toBeVisible();
		// created 12:00:00, completed 12:00:09 on the server.
		expect(within(panel).getByText("9.0s")).toBeVisible();
	});

	it("leaves finished generations, and ones cancelled in this tab, alone", async () => {
		const pollGate = createGate();
		const running = createTestGeneration({ prompt: "A moth at a lamp" });
		const server = startFakeGenerationServer({
			history: [running],
			pollGates: new Map([[0, pollGate.opened]]),
		});
		const first = await openGenerator();
		expect(await screen.findByText(BUSY_TEXT)).toBeVisible();
		await first.user.click(screen.getByRole("button", { name: "Cancel" }));
		first.unmount();

		await openGenerator();
		await waitFor(() => expect(server.readListRequests()).toHaveLength(2));
		expect(screen.getByRole("heading", { name: "No images to display" })).toBeVisible();
		expect(screen.queryByText(BUSY_TEXT)).not.toBeInTheDocument();
	});

	it("does not look for anything to pick up for a signed-out visitor", async () => {
		const lookups: string[] = [];
		mswServer.use(
			http.get("*/api/generations", ({ request }) => {
				lookups.push(request.url);
				return HttpResponse.json({ items: [], nextCursor: null, total: 0, today: 0 });
			}),
		);
		await openGenerator({ isSignedIn: false });
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(lookups).toEqual([]);
	});
});

describe("the full-size preview", () => {
	it("opens on an image and closes on Escape, Close and a click outside, locking the page meanwhile", async () => {
		const server = startFakeGenerationServer();
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A koi pond");
		await user.click(getGenerateButton());
		const panel = getResultPanel();
		await within(panel).findByRole("heading", { name: "4 images" });

		const secondImage = within(panel).getByRole("button", { name: "Open image 2 of 4" });
		await user.click(secondImage);
		let dialog = await screen.findByRole("dialog", { name: "Image 2 of 4" });
		const picture = within(dialog).getByRole("img", { name: "A koi pond" });
		expect(picture).toHaveAttribute("src", `/api/images/generations/${server.generationId}/1.png`);
		expect(picture).toHaveAttribute("width", "1024");
		expect(picture).toHaveAttribute("height", "1024");
		expect(document.body).toHaveAttribute("data-scroll-locked");

		await user.click(within(dialog).getByRole("button", { name: "Next image" }));
		expect(await screen.findByRole("dialog", { name: "Image 3 of 4" })).toBeVisible();
		await user.keyboard("{ArrowLeft}{ArrowLeft}");
		expect(await screen.findByRole("dialog", { name: "Image 1 of 4" })).toBeVisible();

		// Escape closes the preview only: the prompt and the result stay.
		await user.keyboard("{Escape}");
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
		expect(document.body).not.toHaveAttribute("data-scroll-locked");
		expect(secondImage).toHaveFocus();
		expect(getPromptBox()).toHaveValue("A koi pond");

		await user.click(within(panel).getByRole("button", { name: "Open image 1 of 4" }));
		dialog = await screen.findByRole("dialog", { name: "Image 1 of 4" });
		await user.click(within(dialog).getByRole("button", { name: "Close" }));
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
		expect(within(panel).getByRole("button", { name: "Open image 1 of 4" })).toHaveFocus();

		await user.click(within(panel).getByRole("button", { name: "Open image 4 of 4" }));
		await screen.findByRole("dialog", { name: "Image 4 of 4" });
		const overlay = document.querySelector("[data-state='open'].fixed.inset-0");
		if (!overlay) throw new Error("no overlay");
		await user.pointer({ keys: "[MouseLeft]", target: overlay });
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
		expect(screen.getByRole("heading", { name: "4 images" })).toBeVisible();
	});

	it("marks the thumbnail of the image shown in the gallery", async () => {
		startFakeGenerationServer();
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A fox in the snow");
		await user.click(getGenerateButton());
		const thumbnails = within(
			await screen.findByRole("list", { name: "Thumbnails" }, { timeout: 5_000 }),
		);

		expect(thumbnails.getByRole("button", { name: "Show image 1 of 4" })).toHaveAttribute(
			"aria-current",
			"true",
		);
		await user.click(thumbnails.getByRole("button", { name: "Show image 3 of 4" }));
		expect(thumbnails.getByRole("button", { name: "Show image 3 of 4" })).toHaveAttribute(
			"aria-current",
			"true",
		);
		expect(thumbnails.getByRole("button", { name: "Show image 1 of 4" })).not.toHaveAttribute(
			"aria-current",
		);
	});
});
