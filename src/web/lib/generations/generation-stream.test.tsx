// The page's one stream of its generations (decision 041), as the generator, the header's
// "1 running" and the history's running cards follow it; and the polls they fall back to when it
// keeps breaking.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Generation } from "../../../shared/generations/generation-responses";
import { progressReport } from "../../../shared/generations/progress";
import { installFakeEventSource } from "../../testing/fakes/fake-event-source";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createRunningGeneration, createTestImages } from "../../testing/fakes/test-generations";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	getResultPanel,
	openGenerator,
	readProgress,
	startGeneratorApi,
} from "../../testing/generator-screen";
import {
	cleanUpHistoryScreen,
	openHistory,
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { GENERATION_STREAM_URL } from "./generation-stream";

const ACTIVE_PATH = "/api/generations/active";

function getHeader() {
	return within(screen.getByRole("banner"));
}

function completed(generation: Generation): Generation {
	return {
		...generation,
		status: "completed",
		progress: null,
		images: createTestImages(generation.id, generation.aspect_ratio, generation.settings.count),
		completed_at: new Date(Date.parse(generation.created_at) + 3_250).toISOString(),
	};
}

beforeEach(setUpHistoryScreen);
afterEach(() => {
	cleanUpHistoryScreen();
	cleanUpGeneratorScreen();
});

describe("the page's stream of its generations", () => {
	it("brings the generator's progress and its end, without a poll of the status route", async () => {
		const stream = installFakeEventSource();
		const server = startFakeGenerationsApi();
		const { user } = await openGenerator();
		// The header opened the page's one stream as it showed.
		await waitFor(() => expect(stream.readOpenedUrls()).toEqual([GENERATION_STREAM_URL]));
		stream.open();
		stream.sendActive([]);

		await user.type(getPromptBox(), "A harbour at dawn");
		await user.click(getGenerateButton());
		const started = await waitFor(() => {
			const generation = server.readGenerations().find((item) => item.id === server.generationId);
			if (!generation) throw new Error("not started yet");
			return generation;
		});
		const running = {
			...started,
			status: "running" as const,
			progress: progressReport("running", { step: 6, steps: 30 }),
		};
		server.updateGeneration(running);
		stream.sendActive([started.id]);
		stream.sendGeneration(running);
		// Step 6 of 30 is 20 + 75 x 0.2 = 35, as a poll's answer would have drawn it.
		await waitFor(() => expect(readProgress()).toBe(35));
		expect(within(getResultPanel()).getByText("Step 6 of 30")).toBeVisible();

		const done = completed(running);
		server.updateGeneration(done);
		stream.sendGeneration(done);
		stream.sendActive([]);
		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(within(panel).getByText("3.2s")).toBeVisible();
		expect(server.readPollCount()).toBe(0);
		// One stream for the page: the generator shared the header's.
		expect(stream.readOpenedUrls()).toHaveLength(1);
	});

	it("counts the header's running generations from the stream's list, without its poll", async () => {
		const stream = installFakeEventSource();
		// The API's own list holds nothing: a count can only come from the stream.
		const server = startFakeGenerationsApi({ generations: [] });
		openHistory({ path: "/" });
		await waitFor(() => expect(stream.readOpenedUrls()).toEqual([GENERATION_STREAM_URL]));
		stream.open();
		const kites = createRunningGeneration({ prompt: "A kite festival" });
		const market = createRunningGeneration({
			prompt: "A night market",
			status: "queued",
			progress: progressReport("queued", { position: 2 }),
		});
		stream.sendActive([kites.id, market.id]);
		stream.sendGeneration(kites);
		stream.sendGeneration(market);

		const count = await getHeader().findByRole("link", { name: "2 running" });
		expect(count).toHaveAttribute("href", "/generations");

		stream.sendGeneration(completed(kites));
		stream.sendActive([market.id]);
		expect(await getHeader().findByRole("link", { name: "1 running" })).toBeVisible();

		stream.sendGeneration(completed(market));
		stream.sendActive([]);
		await waitFor(() =>
			expect(getHeader().queryByRole("link", { name: /running/ })).not.toBeInTheDocument(),
		);
		expect(server.readRequests("GET", ACTIVE_PATH)).toHaveLength(0);
	});

	it("completes the history's running card when the stream says it finished, without a poll", async () => {
		const stream = installFakeEventSource();
		const running = createRunningGeneration({
			prompt: "A kite festival",
			progress: progressReport("running", { step: 12, steps: 30 }),
		});
		const server = startFakeGenerationsApi({ generations: [running] });
		openHistory();
		const card = within(await screen.findByRole("article", { name: "A kite festival" }));
		await waitFor(() => expect(stream.readOpenedUrls()).toEqual([GENERATION_STREAM_URL]));
		stream.open();
		stream.sendActive([running.id]);
		stream.sendGeneration(running);
		expect(await card.findByText("Step 12 of 30")).toBeVisible();

		const done = completed(running);
		server.updateGeneration(done);
		// Its status moved: that alone has the record read, before the list says it left.
		stream.sendGeneration(done);
		// The finished record, read once, takes the running card's place: its images, no bar.
		const finished = within(screen.getByRole("article", { name: "A kite festival" }));
		expect(
			await finished.findAllByRole("button", { name: /^Preview image/ }, { timeout: 5_000 }),
		).toHaveLength(4);
		expect(finished.queryByRole("progressbar")).not.toBeInTheDocument();
		expect(server.readPollCount()).toBe(0);
		expect(server.readRequests("GET", ACTIVE_PATH)).toHaveLength(0);
	});

	// Last of the file: a stream given up on is not tried again for a minute in this module.
	it("falls back to polling when the stream keeps breaking as it opens", async () => {
		const stream = installFakeEventSource();
		// A poll answers "running" first: the one question the stream asks of a generation it has
		// not named is not enough to end it, only the polls that take over are.
		const server = startGeneratorApi({
			polls: [
				{ status: "running", progress: progressReport("running", { step: 6, steps: 30 }) },
				{ status: "completed" },
			],
		});
		const { user } = await openGenerator();
		await waitFor(() => expect(stream.readOpenedUrls()).toEqual([GENERATION_STREAM_URL]));
		await user.type(getPromptBox(), "A harbour at dawn");
		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readPollCount()).toBe(0);

		// Each time it opens it breaks at once, and the browser tries again: the third is the last.
		for (let attempt = 0; attempt < 3; attempt += 1) {
			stream.open();
			stream.breakConnection();
		}
		expect(stream.isOpen()).toBe(false);

		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(server.readPollCount()).toBeGreaterThan(1);
		// The header's count went back to its long poll.
		await waitFor(() => expect(server.readRequests("GET", ACTIVE_PATH).length).toBeGreaterThan(0));
	});
});
