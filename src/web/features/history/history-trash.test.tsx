// Deleting with a Trash (decision 031): no question asked, a toast offering Undo for ten seconds,
// the administrator told whose generation went to its owner's Trash; and the Trash page.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createTestTrashItem, startFakeTrashApi } from "../../testing/fakes/fake-trash-api";
import { createTestGeneration } from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	findCard,
	findCards,
	hoursAgo,
	openHistory,
} from "../../testing/history-screen";
import { findToast } from "../../testing/toasts";

const DELETED = "Generation deleted successfully";

describe("deleting to the Trash", () => {
	beforeEach(() => {
		// The toast's ten seconds are counted on a clock the test moves; the rest runs as usual.
		vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout", "Date"] });
	});
	afterEach(() => {
		cleanUpHistoryScreen();
		vi.useRealTimers();
	});

	it("deletes at once with a toast whose Undo, for ten seconds, puts the generation back", async () => {
		const generations = startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Oops", created_at: hoursAgo(0.01) }),
				createTestGeneration({ prompt: "Stay", created_at: hoursAgo(0.02) }),
			],
		});
		const trash = startFakeTrashApi(generations);
		const { user } = openHistory();
		await findCards();

		await user.click(within(findCard("Oops")).getByRole("button", { name: "Delete" }));
		const toast = await findToast(DELETED);
		expect(screen.queryByRole("alertdialog")).toBeNull();
		await waitFor(() => expect(screen.queryByRole("article", { name: "Oops" })).toBeNull());
		const toastItem = toast.closest("[data-sonner-toast]") as HTMLElement;
		vi.advanceTimersByTime(9_000);
		const undo = within(toastItem).getByRole("button", { name: "Undo" });
		await user.click(undo);

		await waitFor(() => expect(trash.readRequests()).toContain("POST /api/trash/restore"));
		expect(await screen.findByRole("article", { name: "Oops" })).toBeInTheDocument();
		expect(trash.readTrash()).toEqual([]);
	});

	it("takes the Undo away after ten seconds", async () => {
		const generations = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Gone" })],
		});
		startFakeTrashApi(generations);
		const { user } = openHistory();
		await findCards();

		await user.click(within(findCard("Gone")).getByRole("button", { name: "Delete" }));
		await findToast(DELETED);
		vi.advanceTimersByTime(9_500);
		expect(screen.getByRole("button", { name: "Undo" })).toBeInTheDocument();
		vi.advanceTimersByTime(1_000);
		await waitFor(() => expect(screen.queryByRole("button", { name: "Undo" })).toBeNull());
	});

	it("tells the administrator whose generation went to its owner's Trash", async () => {
		const generations = startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Alice's castle", owner_email: "alice@example.com" }),
				createTestGeneration({ prompt: "My own", owner_email: "admin@example.com" }),
			],
		});
		startFakeTrashApi(generations);
		const { user } = openHistory({ isAdmin: true, user: { email: "admin@example.com" } });
		await findCards();

		await user.click(within(findCard("Alice's castle")).getByRole("button", { name: "Delete" }));
		await findToast(`${DELETED}. This generation belongs to alice@example.com.`);

		await user.click(within(findCard("My own")).getByRole("button", { name: "Delete" }));
		expect(await findToast(DELETED)).toHaveTextContent(new RegExp(`^${DELETED}$`));
	});
});

describe("the Trash page", () => {
	afterEach(cleanUpHistoryScreen);

	function startTrash(prompts: readonly string[]) {
		const generations = startFakeGenerationsApi({ generations: [] });
		return startFakeTrashApi(
			generations,
			prompts.map((prompt) => createTestTrashItem(createTestGeneration({ prompt }))),
		);
	}
	const findRow = async (prompt: string) =>
		(await screen.findByText(prompt)).closest("li") as HTMLElement;

	it("says when each was deleted and when it goes for good; Restore puts one back", async () => {
		const trash = startTrash(["A kept sketch", "Another"]);
		const { user } = openHistory({ path: "/trash" });
		const row = await findRow("A kept sketch");
		expect(row).toHaveTextContent(/Deleted .+ · Removed for good .+/);

		await user.click(within(row).getByRole("button", { name: "Restore" }));
		await findToast("Restored");
		await waitFor(() => expect(screen.queryByText("A kept sketch")).toBeNull());
		expect(trash.readTrash().map((item) => item.prompt)).toEqual(["Another"]);
	});

	it("deletes one forever after its confirmation, and empties the Trash after its own", async () => {
		const trash = startTrash(["First", "Second", "Third"]);
		const { user } = openHistory({ path: "/trash" });

		await user.click(
			within(await findRow("First")).getByRole("button", { name: "Delete forever" }),
		);
		let dialog = await screen.findByRole("alertdialog", { name: "Delete forever?" });
		expect(dialog).toHaveTextContent(
			"This action cannot be undone. This generation will be deleted for good.",
		);
		await user.click(within(dialog).getByRole("button", { name: "Delete forever" }));
		await findToast("Deleted forever");
		await waitFor(() => expect(screen.queryByText("First")).toBeNull());

		await user.click(screen.getByRole("button", { name: "Empty Trash" }));
		dialog = await screen.findByRole("alertdialog", { name: "Empty Trash?" });
		expect(dialog).toHaveTextContent(
			"This action cannot be undone. Everything in the Trash will be deleted for good.",
		);
		await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
		expect(trash.readTrash()).toHaveLength(2);
		expect(trash.readRequests()).not.toContain("POST /api/trash/empty");

		await user.click(screen.getByRole("button", { name: "Empty Trash" }));
		dialog = await screen.findByRole("alertdialog", { name: "Empty Trash?" });
		await user.click(within(dialog).getByRole("button", { name: "Empty Trash" }));
		await findToast("2 deleted forever");
		expect(await screen.findByText("The Trash is empty.")).toBeInTheDocument();
		expect(screen.getByRole("button", { name: "Empty Trash" })).toBeDisabled();
	});

	it("says so when the Trash is empty", async () => {
		startTrash([]);
		openHistory({ path: "/trash" });
		expect(await screen.findByText("The Trash is empty.")).toBeInTheDocument();
		expect(screen.getByRole("button", { name: "Empty Trash" })).toBeDisabled();
	});
});
