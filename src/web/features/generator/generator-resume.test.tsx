// Generations started earlier (a reload, another visit) picked up again, and sign-out dropping them.
import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import { createGate, createRunningGeneration } from "../../testing/fakes/test-generations";
import {
	BUSY_TEXT,
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	getResultPanel,
	openGenerator,
	readProgress,
	startGeneratorApi,
} from "../../testing/generator-screen";
import { mswServer } from "../../testing/msw-server";

afterEach(cleanUpGeneratorScreen);

describe("picking a generation up again", () => {
	it("shows a generation still running on the server in progress, then its images", async () => {
		const pollGate = createGate();
		const running = createRunningGeneration({
			prompt: "A ship in a bottle",
			aspect_ratio: "--ar 2:3",
			status: "running",
		});
		startGeneratorApi({
			generations: [running],
			pollGates: new Map([[0, pollGate.opened]]),
			runTimeMs: 9_000,
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
		const running = createRunningGeneration({ prompt: "A moth at a lamp" });
		const server = startGeneratorApi({
			generations: [running],
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

describe("signing out", () => {
	it("drops the generation of the previous account on sign-out", async () => {
		const pollGate = createGate();
		startGeneratorApi({ pollGates: new Map([[0, pollGate.opened]]) });
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
});
