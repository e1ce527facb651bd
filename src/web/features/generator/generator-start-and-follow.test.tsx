// Generating: the start, the progress while the server works, the images, cancel and the preview.
import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import type { PollStep } from "../../testing/fakes/fake-generations-api";
import { createGate } from "../../testing/fakes/test-generations";
import {
	BUSY_TEXT,
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	getResultPanel,
	openGenerator,
	openGeneratorOnFakeClock,
	readProgress,
	startGeneratorApi,
} from "../../testing/generator-screen";
import { mswServer } from "../../testing/msw-server";

afterEach(cleanUpGeneratorScreen);

describe("starting and following a generation", () => {
	it("shows the progress while busy, then four images with the prompt, ratio and time", async () => {
		const startGate = createGate();
		const server = startGeneratorApi({ startGate: startGate.opened });
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
		// With the one model offered, its id and its largest count: nothing else was set.
		expect(server.readCreateRequests()).toEqual([
			{ prompt: "A lighthouse in a storm", aspectRatio: "--ar 16:9", model: "local", count: 4 },
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
		const server = startGeneratorApi({
			startGate: startGate.opened,
			pollGates: new Map([[0, firstPollGate.opened]]),
			polls,
		});
		const { user, advance, advanceUntil } = await openGeneratorOnFakeClock();

		await user.type(getPromptBox(), "A clock tower");
		await user.click(getGenerateButton());
		await advanceUntil(() => expect(readProgress()).toBe(5));
		expect(screen.getByText("0ms")).toBeVisible();

		await advance(1_000);
		expect(screen.getByText("1.0s")).toBeVisible();

		// Accepted (15), then polling begins at 20 while the first poll is out.
		startGate.release();
		await advanceUntil(() => expect(readProgress()).toBe(20));
		expect(screen.getByText("20%")).toHaveStyle({ left: "20%" });

		// The first "running" is news and is followed at once; later ones wait out the interval.
		firstPollGate.release();
		await advanceUntil(() => expect(readProgress()).toBe(36));
		expect(server.readPollCount()).toBe(2);
		await advance(1_499);
		expect(server.readPollCount()).toBe(2);
		await advance(1);
		await advanceUntil(() => expect(readProgress()).toBe(44));

		const seen = [readProgress()];
		for (let poll = 0; poll < 9; poll += 1) {
			await advance(1_500);
			seen.push(readProgress());
		}
		expect(seen).toEqual([44, 52, 60, 68, 76, 84, 92, 95, 95, 95]);
		expect(screen.getByText("95%")).toHaveStyle({ left: "95%" });

		await advance(60_000);
		await advanceUntil(() =>
			expect(within(getResultPanel()).getByRole("heading", { name: "4 images" })).toBeVisible(),
		);
	});

	it("passes on what the server says while the generation waits", async () => {
		const secondPollGate = createGate();
		startGeneratorApi({
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

	it("names the last answer's version in the next poll, so news between two polls comes at once", async () => {
		const server = startGeneratorApi({
			polls: [
				{ status: "queued", version: "first-answer" },
				{ status: "running", version: "second-answer" },
				{ status: "completed" },
			],
		});
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A crowded market");
		await user.click(getGenerateButton());

		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
		const polls = server.readRequests("GET", `/api/generations/${server.generationId}/status`);
		expect(polls.map((poll) => poll.search.get("after"))).toEqual([
			null,
			"first-answer",
			"second-answer",
		]);
	});

	it("shows the elapsed time in minutes and seconds past a minute", async () => {
		const startGate = createGate();
		startGeneratorApi({ startGate: startGate.opened });
		const { user, advance, advanceUntil } = await openGeneratorOnFakeClock();

		await user.type(getPromptBox(), "A slow sunrise");
		await user.click(getGenerateButton());
		await advanceUntil(() => expect(readProgress()).toBe(5));

		await advance(59_000);
		expect(screen.getByText("59.0s")).toBeVisible();
		await advance(66_000);
		expect(screen.getByText("2m 5s")).toBeVisible();
		startGate.release();
	});

	it("reads the wider poll answers too: results as objects with url or src, and an error status", async () => {
		startGeneratorApi({ isRecordAvailable: false });
		mswServer.use(
			http.get("*/api/generations/:id/status", () =>
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
			http.get("*/api/generations/:id/status", () =>
				HttpResponse.json({ status: "error", message: "The GPU caught fire" }),
			),
		);
		await user.click(getGenerateButton());
		await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("The GPU caught fire"));
	});

	it("shows the images from the poll when the saved record cannot be read, without a word", async () => {
		const server = startGeneratorApi({ isRecordAvailable: false });
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

	it("cancels: polling stops, the busy state ends and Request was cancelled is shown", async () => {
		const pollGate = createGate();
		const server = startGeneratorApi({
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
});

describe("the full-size preview", () => {
	it("opens on an image and closes on Escape, Close and a click outside, locking the page meanwhile", async () => {
		const server = startGeneratorApi();
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
		startGeneratorApi();
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
