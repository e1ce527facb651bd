// What the generator says when it refuses to start, or when a start or a poll fails.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	getResultPanel,
	openGenerator,
	openGeneratorOnFakeClock,
	readProgressOrZero,
	startGeneratorApi,
} from "../../testing/generator-screen";

afterEach(cleanUpGeneratorScreen);

describe("refusals before anything starts", () => {
	it("asks a signed-out visitor to sign in, without starting anything", async () => {
		const server = startGeneratorApi();
		const { user } = await openGenerator({ isSignedIn: false });

		await user.type(getPromptBox(), "A castle in the clouds");
		await user.click(getGenerateButton());

		expect(await screen.findByRole("alert")).toHaveTextContent(
			"Please sign in to generate images.",
		);
		expect(await within(getResultPanel()).findByRole("link", { name: "Sign In" })).toHaveAttribute(
			"href",
			"/login",
		);
		expect(server.readCreateRequests()).toEqual([]);
	});

	it("says Please enter a valid prompt when generating with an invalid one by shortcut", async () => {
		const server = startGeneratorApi();
		const { user } = await openGenerator();

		await user.keyboard("{Control>}{Enter}{/Control}");

		expect(await screen.findByRole("alert")).toHaveTextContent("Please enter a valid prompt.");
		expect(screen.getByText("Prompt cannot be empty")).toBeVisible();
		expect(server.readCreateRequests()).toEqual([]);
	});
});

describe("failures of a generation", () => {
	it("shows the failure in red with an alert role and drops the progress; Try Again asks again", async () => {
		const server = startGeneratorApi({
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
		startGeneratorApi({ polls: [{ status: "failed", message: null }] });
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
			startGeneratorApi({ start });
			const { user, unmount } = await openGenerator();
			await user.type(getPromptBox(), "A tiny robot");
			await user.click(getGenerateButton());
			await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(expected));
			expect(readProgressOrZero()).toBe(0);
			unmount();
		}
	});

	it("says No polling URL provided when the server gives none", async () => {
		startGeneratorApi({ start: { kind: "accepted", pollingUrl: "" } });
		const { user } = await openGenerator();

		await user.type(getPromptBox(), "A paper boat");
		await user.click(getGenerateButton());

		await waitFor(() =>
			expect(screen.getByRole("alert")).toHaveTextContent("No polling URL provided"),
		);
	});

	it("retries a failed poll after the polling interval, saying why meanwhile", async () => {
		const server = startGeneratorApi({
			polls: [{ httpStatus: 503 }, { isNetworkError: true }, { status: "completed" }],
		});
		const { user, advance, advanceUntil } = await openGeneratorOnFakeClock();

		await user.type(getPromptBox(), "A rainy street");
		await user.click(getGenerateButton());
		await advanceUntil(() => expect(screen.getByText(/Polling HTTP 503/)).toBeVisible());
		expect(server.readPollCount()).toBe(1);
		expect(screen.queryByRole("alert")).toBeEmptyDOMElement();

		await advance(1_499);
		expect(server.readPollCount()).toBe(1);
		await advance(1);
		await advanceUntil(() => expect(server.readPollCount()).toBe(2));
		await advanceUntil(() => expect(screen.getByText(/Network connection failed/)).toBeVisible());

		await advance(1_500);
		await advanceUntil(() =>
			expect(within(getResultPanel()).getByRole("heading", { name: "4 images" })).toBeVisible(),
		);
		expect(server.readPollCount()).toBe(3);
	});

	it("gives up with Generation timed out when polls keep failing for five minutes", async () => {
		startGeneratorApi({ polls: [{ httpStatus: 502 }] });
		const { user, advance, advanceUntil } = await openGeneratorOnFakeClock();

		await user.type(getPromptBox(), "A frozen waterfall");
		await user.click(getGenerateButton());
		await advanceUntil(() => expect(screen.getByText(/Polling HTTP 502/)).toBeVisible());

		await advance(298_000);
		expect(screen.queryByRole("alert")).toBeEmptyDOMElement();
		await advance(3_000);
		await advanceUntil(() =>
			expect(screen.getByRole("alert")).toHaveTextContent("Generation timed out"),
		);
		// Five minutes of the fake clock are two hundred failed polls (and the header's list beside
		// them), each a real round trip through the fake server: 5 s on an idle machine, three times
		// that on a busy one, so this test has more than the web project's 15 s.
	}, 60_000);
});
