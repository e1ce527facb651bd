// Generations started in another tab, on another device or through the API: counted in the
// header ("1 running") on every page, and shown running with their progress in the history.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { progressReport } from "../../../shared/generations/progress";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import {
	createRunningGeneration,
	createTestGeneration,
} from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	openHistory,
	setUpHistoryScreen,
} from "../../testing/history-screen";

const report = progressReport;

function getHeader() {
	return within(screen.getByRole("banner"));
}

describe("generations running elsewhere", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("counts them in the header, linking to the history, until they finish", async () => {
		const running = createRunningGeneration({ prompt: "A kite festival" });
		const server = startFakeGenerationsApi({ generations: [running] });
		const { user, readLocation } = openHistory({ path: "/" });

		const count = await getHeader().findByRole("link", { name: "1 running" });
		expect(count).toHaveAttribute("href", "/generations");
		await user.click(count);
		await waitFor(() => expect(readLocation()).toBe("/generations"));

		server.updateGeneration(
			createTestGeneration({ ...running, status: "completed", completed_at: running.created_at }),
		);
		await waitFor(() =>
			expect(getHeader().queryByRole("link", { name: /running/ })).not.toBeInTheDocument(),
		);
	});

	it("says what it counts on a phone too: '2 run' under the small breakpoint, '2 running' above, named in full", async () => {
		startFakeGenerationsApi({
			generations: [
				createRunningGeneration({ prompt: "A kite festival" }),
				createRunningGeneration({ prompt: "A night market", status: "queued" }),
			],
		});
		openHistory({ path: "/" });

		const count = await getHeader().findByRole("link", { name: "2 running" });
		// jsdom applies no breakpoints: the words are told apart by the classes that show them.
		const [phoneWord, wideWord] = within(count).getAllByText(/^run/);
		expect(phoneWord).toHaveTextContent(/^run$/);
		expect(phoneWord).toHaveClass("sm:hidden");
		expect(wideWord).toHaveTextContent(/^running$/);
		expect(wideWord).toHaveClass("hidden", "sm:inline");
	});

	it("shows each one's progress on its card: its queue position or its step", async () => {
		startFakeGenerationsApi({
			generations: [
				createRunningGeneration({
					prompt: "A kite festival",
					progress: report("running", { step: 12, steps: 30 }),
				}),
				createRunningGeneration({
					prompt: "A night market",
					status: "queued",
					created_at: "2025-01-05T12:01:00.000Z",
					progress: report("queued", { position: 2 }),
				}),
			],
		});
		openHistory();

		expect(await getHeader().findByRole("link", { name: "2 running" })).toBeVisible();
		const kites = within(await screen.findByRole("article", { name: "A kite festival" }));
		expect(await kites.findByText("Step 12 of 30")).toBeVisible();
		const market = within(screen.getByRole("article", { name: "A night market" }));
		expect(market.getByText("2 ahead of you")).toBeVisible();
	});

	it("shows each one's bar as the generator maps its fraction, and its latest preview dimmed, kept live by the header's poll", async () => {
		const kites = createRunningGeneration({
			prompt: "A kite festival",
			progress: report("running", { step: 12, steps: 30, previewUrl: "/preview-12.webp" }),
		});
		const server = startFakeGenerationsApi({
			generations: [
				kites,
				createRunningGeneration({
					prompt: "A night market",
					status: "queued",
					created_at: "2025-01-05T12:01:00.000Z",
					progress: report("queued", { position: 2 }),
				}),
				createTestGeneration({ prompt: "A finished harbour" }),
			],
		});
		openHistory();

		const kiteCard = within(await screen.findByRole("article", { name: "A kite festival" }));
		// Step 12 of 30 is 20 + 75 x 0.4 = 50, as on the generator's bar.
		const kiteBar = await kiteCard.findByRole("progressbar", { name: "Generation progress" });
		expect(kiteBar).toHaveAttribute("aria-valuenow", "50");
		const preview = kiteCard.getByRole("img", { name: "Latest preview, not final yet" });
		expect(preview).toHaveAttribute("src", "/preview-12.webp");
		expect(preview).toHaveClass("opacity-60");

		// Waiting in the queue says nothing of how far it is: a bar without a value, no preview.
		const market = within(screen.getByRole("article", { name: "A night market" }));
		expect(market.getByRole("progressbar", { name: "Generation progress" })).not.toHaveAttribute(
			"aria-valuenow",
		);
		expect(market.queryByRole("img")).not.toBeInTheDocument();
		// A finished card has neither.
		const harbour = within(screen.getByRole("article", { name: "A finished harbour" }));
		expect(harbour.queryByRole("progressbar")).not.toBeInTheDocument();

		server.updateGeneration({
			...kites,
			progress: report("running", { step: 24, steps: 30, previewUrl: "/preview-24.webp" }),
		});
		await waitFor(() => expect(kiteBar).toHaveAttribute("aria-valuenow", "80"));
		expect(kiteCard.getByText("Step 24 of 30")).toBeVisible();
		expect(kiteCard.getByRole("img", { name: "Latest preview, not final yet" })).toHaveAttribute(
			"src",
			"/preview-24.webp",
		);
	});

	it("adds one started elsewhere to the open history, running", async () => {
		const server = startFakeGenerationsApi({ generations: [] });
		openHistory();
		await screen.findByText("No generations found");

		server.addGeneration(
			createRunningGeneration({
				prompt: "Made through the API",
				progress: report("running", { step: 3, steps: 20 }),
			}),
		);
		const card = within(await screen.findByRole("article", { name: "Made through the API" }));
		expect(await card.findByText("Step 3 of 20")).toBeVisible();
		expect(getHeader().getByRole("link", { name: "1 running" })).toBeVisible();
	});
});
