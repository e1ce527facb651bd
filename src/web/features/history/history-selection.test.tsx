// Selection mode: a checkbox on each card, Shift+click for a range, Select all shown, and bulk
// Delete and Download; and what the administrator's delete confirmation says.

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createTestGeneration } from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	findCard,
	findCards,
	hoursAgo,
	openHistory,
	readPrompts,
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { findToast } from "../../testing/toasts";

const PROMPTS = ["One", "Two", "Three", "Four", "Five"];

function createHistory() {
	return PROMPTS.map((prompt, index) =>
		createTestGeneration({ prompt, created_at: hoursAgo(0.01 * (index + 1)) }),
	);
}

function getCheckbox(prompt: string) {
	return within(findCard(prompt)).getByRole("checkbox", { name: `Select: ${prompt}` });
}

function getSelectionBar() {
	return screen.getByRole("region", { name: "Selection" });
}

async function startSelecting(user: ReturnType<typeof openHistory>["user"]) {
	await findCards();
	expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
	await user.click(screen.getByRole("button", { name: "Select" }));
	return getSelectionBar();
}

describe("selecting many generations", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("shows a checkbox on each card, selects a range with Shift+click, and all shown at once", async () => {
		startFakeGenerationsApi({ generations: createHistory() });
		const { user } = openHistory();
		const bar = await startSelecting(user);
		expect(within(bar).getByText("0 selected")).toBeVisible();
		expect(within(bar).getByRole("button", { name: "Delete" })).toBeDisabled();
		expect(within(bar).getByRole("button", { name: "Download (ZIP)" })).toBeDisabled();

		await user.click(getCheckbox("Two"));
		await user.keyboard("{Shift>}");
		await user.click(getCheckbox("Four"));
		await user.keyboard("{/Shift}");

		expect(within(bar).getByText("3 selected")).toBeVisible();
		expect(PROMPTS.map((prompt) => (getCheckbox(prompt) as HTMLInputElement).checked)).toEqual([
			false,
			true,
			true,
			true,
			false,
		]);

		await user.click(getCheckbox("Three"));
		expect(within(bar).getByText("2 selected")).toBeVisible();

		await user.click(within(bar).getByRole("button", { name: "Select all shown" }));
		expect(within(bar).getByText("5 selected")).toBeVisible();
		for (const prompt of PROMPTS) expect(getCheckbox(prompt)).toBeChecked();

		await user.click(within(bar).getByRole("button", { name: "Done" }));
		expect(screen.queryByRole("region", { name: "Selection" })).not.toBeInTheDocument();
		expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
	});

	it("deletes the selection after one confirmation that names the count", async () => {
		const history = createHistory();
		const server = startFakeGenerationsApi({ generations: history });
		const { user } = openHistory();
		const bar = await startSelecting(user);
		await user.click(getCheckbox("One"));
		await user.click(getCheckbox("Three"));

		await user.click(within(bar).getByRole("button", { name: "Delete" }));
		const dialog = await screen.findByRole("alertdialog", { name: "Delete 2 generations?" });
		expect(
			within(dialog).getByText(
				"This action cannot be undone. Do you really want to delete these 2 generations?",
			),
		).toBeVisible();
		await user.click(within(dialog).getByRole("button", { name: "Delete 2" }));

		expect(await findToast("2 generations deleted")).toBeVisible();
		await waitFor(() =>
			expect(readPrompts(screen.getAllByRole("article"))).toEqual(["Two", "Four", "Five"]),
		);
		expect(screen.getByText("3 generations · 3 today")).toBeVisible();
		expect(within(bar).getByText("0 selected")).toBeVisible();
		const requests = server.readRequests("POST", "/api/generations/bulk-delete");
		expect(requests).toHaveLength(1);
		expect(requests[0]?.body).toEqual({ ids: [history[0]?.id, history[2]?.id] });
		expect(server.readRequests("DELETE")).toHaveLength(0);
	});

	it("deletes nothing on Cancel, and says so when the server refuses the whole batch", async () => {
		const server = startFakeGenerationsApi({ generations: createHistory() });
		const { user } = openHistory();
		const bar = await startSelecting(user);
		await user.click(getCheckbox("Five"));
		await user.click(getCheckbox("Four"));

		await user.click(within(bar).getByRole("button", { name: "Delete" }));
		let dialog = await screen.findByRole("alertdialog", { name: "Delete 2 generations?" });
		await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
		await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
		expect(server.readRequests("POST", "/api/generations/bulk-delete")).toHaveLength(0);

		server.setFailure("bulkDelete", "SERVICE_UNAVAILABLE");
		await user.click(within(bar).getByRole("button", { name: "Delete" }));
		dialog = await screen.findByRole("alertdialog", { name: "Delete 2 generations?" });
		await user.click(within(dialog).getByRole("button", { name: "Delete 2" }));

		expect(await findToast("Failed to delete the generations. Nothing was deleted.")).toBeVisible();
		expect(screen.getAllByRole("article")).toHaveLength(5);
		expect(within(bar).getByText("2 selected")).toBeVisible();
	});

	it("downloads the selection as one ZIP through a plain form post", async () => {
		const history = createHistory();
		startFakeGenerationsApi({ generations: history });
		const { user } = openHistory();
		const bar = await startSelecting(user);
		await user.click(getCheckbox("Two"));
		await user.click(getCheckbox("Five"));

		const button = within(bar).getByRole("button", { name: "Download (ZIP)" });
		expect(button).toBeEnabled();
		const form = button.closest("form");
		if (!form) throw new Error("the download button is not in a form");
		expect(form).toHaveAttribute("method", "post");
		expect(form).toHaveAttribute("action", "/api/generations/archive");
		// The answer goes to a hidden frame: an error page never replaces the app.
		const frame = bar.querySelector("iframe");
		expect(frame).not.toBeNull();
		expect(form.getAttribute("target")).toBe(frame?.getAttribute("name"));
		expect(new FormData(form).getAll("ids")).toEqual([history[1]?.id, history[4]?.id]);
	});

	it("leaves selection mode with Escape, and a new search starts a new selection", async () => {
		startFakeGenerationsApi({ generations: createHistory() });
		const { user } = openHistory();
		const bar = await startSelecting(user);
		await user.click(getCheckbox("One"));

		await user.type(screen.getByRole("searchbox", { name: "Search prompts" }), "o{Enter}");
		await screen.findByText("3 generations match · 3 today");
		expect(within(bar).getByText("0 selected")).toBeVisible();
		expect(getCheckbox("Two")).not.toBeChecked();

		await user.click(getCheckbox("Two"));
		(document.activeElement as HTMLElement | null)?.blur();
		await user.keyboard("{Escape}");
		expect(screen.queryByRole("region", { name: "Selection" })).not.toBeInTheDocument();
	});
});

describe("the administrator's delete", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("names the owner of someone else's generation, and the owners of a selection", async () => {
		startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Alice's castle", owner_email: "alice@example.com" }),
				createTestGeneration({ prompt: "Bob's boat", owner_email: "bob@example.com" }),
				createTestGeneration({ prompt: "My own", owner_email: "admin@example.com" }),
			],
		});
		const { user } = openHistory({ isAdmin: true, user: { email: "admin@example.com" } });
		await findCards();

		await user.click(within(findCard("Alice's castle")).getByRole("button", { name: "Delete" }));
		let dialog = await screen.findByRole("alertdialog", { name: "Delete Generation?" });
		expect(within(dialog).getByText("This generation belongs to alice@example.com.")).toBeVisible();
		await user.click(within(dialog).getByRole("button", { name: "Cancel" }));

		await user.click(within(findCard("My own")).getByRole("button", { name: "Delete" }));
		dialog = await screen.findByRole("alertdialog", { name: "Delete Generation?" });
		expect(within(dialog).queryByText(/belongs to/)).not.toBeInTheDocument();
		await user.click(within(dialog).getByRole("button", { name: "Cancel" }));

		const bar = await startSelecting(user);
		await user.click(within(bar).getByRole("button", { name: "Select all shown" }));
		await user.click(within(bar).getByRole("button", { name: "Delete" }));
		dialog = await screen.findByRole("alertdialog", { name: "Delete 3 generations?" });
		expect(
			within(dialog).getByText("These generations belong to alice@example.com, bob@example.com."),
		).toBeVisible();
	});
});
