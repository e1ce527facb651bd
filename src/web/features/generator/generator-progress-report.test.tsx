// What the generator shows of the server's progress reports: the line under the bar, the bar's
// real fraction (never backwards), the latest preview, and the tab's title and favicon.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { progressReport } from "../../../shared/generations/progress";
import type { PollStep } from "../../testing/fakes/fake-generations-api";
import { setPageVisibility } from "../../testing/fakes/fake-notifications";
import { createGate } from "../../testing/fakes/test-generations";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	getResultPanel,
	openGenerator,
	readProgress,
	startGeneratorApi,
} from "../../testing/generator-screen";

// The page's favicon, as index.html links it.
beforeEach(() => {
	const icon = document.createElement("link");
	icon.rel = "icon";
	icon.href = "/icons/icon-32.png";
	document.head.append(icon);
});

afterEach(() => {
	document.head.querySelector('link[rel="icon"]')?.remove();
	cleanUpGeneratorScreen();
	setPageVisibility("visible");
	document.title = "Atelier";
});

const report = progressReport;

/** Scripted polls, each after the first held until the test releases it. */
function startScriptedRun(polls: PollStep[]) {
	const gates = polls.map(() => createGate());
	const server = startGeneratorApi({
		polls,
		pollGates: new Map(gates.map((gate, index) => [index + 1, gate.opened])),
	});
	let released = 0;
	return {
		server,
		/** Lets the next held poll answer. */
		next: () => {
			released += 1;
			gates[released - 1]?.release();
		},
	};
}

function readStageLine(): string {
	const bar = screen.getByRole("progressbar");
	const line = bar.parentElement?.querySelector('[aria-live="polite"]');
	return line?.textContent ?? "";
}

function readIconHref(): string {
	return document.querySelector('link[rel~="icon"]')?.getAttribute("href") ?? "";
}

describe("the generator's progress from the server's reports", () => {
	it("says the queue position, the start, each step and the saving, with the bar's real fraction never moving back", async () => {
		const run = startScriptedRun([
			{ status: "queued", progress: report("queued", { position: 3 }) },
			{ status: "queued", progress: report("queued", { position: 1 }) },
			{ status: "queued", progress: report("queued", { position: 0 }) },
			{ status: "running", progress: report("starting") },
			{
				status: "running",
				progress: report("running", { step: 6, steps: 30, previewUrl: "/preview-6.webp" }),
			},
			{
				status: "running",
				progress: report("running", { step: 24, steps: 30, previewUrl: "/preview-24.webp" }),
			},
			{ status: "running", progress: report("saving", { step: 30, steps: 30 }) },
			{ status: "completed" },
		]);
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A harbour at dawn");
		await user.click(getGenerateButton());

		// Waiting in the queue says nothing of the run: the bar holds at 20, where polling begins.
		await waitFor(() => expect(readStageLine()).toBe("3 ahead of you"));
		expect(readProgress()).toBe(20);
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("1 ahead of you"));
		expect(readProgress()).toBe(20);
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("Next in line"));
		expect(readProgress()).toBe(20);
		// Out of the queue, without a fraction yet: SPEC.md's schedule counts from here, 28.
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("Starting"));
		expect(readProgress()).toBe(28);

		// Step 6 of 30 is 20 + 75 x 0.2 = 35.
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("Step 6 of 30"));
		expect(readProgress()).toBe(35);
		const preview = within(getResultPanel()).getByRole("img", {
			name: "Latest preview, not final yet",
		});
		expect(preview).toHaveAttribute("src", "/preview-6.webp");
		expect(preview).toHaveClass("opacity-60");

		// Step 24 of 30: 20 + 75 x 0.8 = 80, and the newer preview.
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("Step 24 of 30"));
		expect(readProgress()).toBe(80);
		expect(
			within(getResultPanel()).getByRole("img", { name: "Latest preview, not final yet" }),
		).toHaveAttribute("src", "/preview-24.webp");

		// Saving: 30 of 30 is 95, the top of the running range.
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("Saving images"));
		expect(readProgress()).toBe(95);

		run.next();
		const panel = getResultPanel();
		expect(await within(panel).findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(
			within(panel).queryByRole("img", { name: "Latest preview, not final yet" }),
		).not.toBeInTheDocument();
	});

	it("never moves the bar backwards when a fraction below what the schedule showed arrives", async () => {
		const run = startScriptedRun([
			{ status: "running", progress: report("starting") },
			{ status: "running", progress: report("running") },
			{ status: "running", progress: report("running", { step: 3, steps: 30 }) },
			{ status: "running", progress: report("running", { step: 15, steps: 30 }) },
			{ status: "completed" },
		]);
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A tide pool");
		await user.click(getGenerateButton());

		await waitFor(() => expect(readStageLine()).toBe("Starting"));
		expect(readProgress()).toBe(28);
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("Generating"));
		expect(readProgress()).toBe(36);
		// Step 3 of 30 maps to 27.5, below the 36 shown: the bar stays.
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("Step 3 of 30"));
		expect(readProgress()).toBe(36);
		// Step 15 of 30 is 20 + 75 x 0.5 = 57.5, rounded to 58.
		run.next();
		await waitFor(() => expect(readStageLine()).toBe("Step 15 of 30"));
		expect(readProgress()).toBe(58);
		run.next();
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
	});

	it("keeps SPEC.md's schedule and says nothing more for a server that reports no progress", async () => {
		const run = startScriptedRun([{ status: "running" }, { status: "completed" }]);
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A quiet valley");
		await user.click(getGenerateButton());

		await waitFor(() => expect(readProgress()).toBe(28));
		expect(readStageLine()).toBe("");
		run.next();
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
	});
});

describe("the tab while a generation runs", () => {
	it("shows the percent in the title and a progress mark as the favicon, then the usual tab at once in a visible tab", async () => {
		const run = startScriptedRun([
			{ status: "running", progress: report("running", { percent: 40 }) },
			{ status: "completed" },
		]);
		const usualIcon = readIconHref();
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A glass greenhouse");
		await user.click(getGenerateButton());

		// 40 percent of the provider's run is 20 + 75 x 0.4 = 50 on the bar.
		await waitFor(() => expect(document.title).toBe("50% · Atelier"));
		expect(readIconHref()).toMatch(/^data:image\/svg\+xml,/);

		run.next();
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(document.title).toBe("Atelier");
		expect(readIconHref()).toBe(usualIcon);
		expect(usualIcon).toBe("/icons/icon-32.png");
	});

	it("says Done in the title of a hidden tab until it is seen", async () => {
		const run = startScriptedRun([
			{ status: "running", progress: report("running", { step: 3, steps: 10 }) },
			{ status: "completed" },
		]);
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A paper lantern");
		await user.click(getGenerateButton());
		await waitFor(() => expect(document.title).toBe("43% · Atelier"));

		setPageVisibility("hidden");
		run.next();
		await waitFor(() => expect(document.title).toBe("Done · Atelier"));
		setPageVisibility("visible");
		expect(document.title).toBe("Atelier");
	});

	it("says Failed in the title of a hidden tab when the generation fails", async () => {
		startGeneratorApi({ polls: [{ status: "failed", message: "The model is overloaded" }] });
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "A stormy sea");
		setPageVisibility("hidden");
		await user.click(getGenerateButton());

		await waitFor(() => expect(document.title).toBe("Failed · Atelier"));
		setPageVisibility("visible");
		expect(document.title).toBe("Atelier");
	});
});
