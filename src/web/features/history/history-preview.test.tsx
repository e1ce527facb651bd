// The preview's keys and actions: Left and Right move through a generation's images and on to
// the one before or after; the card's actions are all there.

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
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { findToast } from "../../testing/toasts";

/** The preview's title and its description, the prompt of the generation shown. */
function readShown() {
	const dialog = screen.getByRole("dialog");
	return {
		title: within(dialog).getByRole("heading").textContent,
		prompt: document.getElementById(dialog.getAttribute("aria-describedby") ?? "")?.textContent,
	};
}

describe("the preview", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("moves through the images with the arrow keys, and on to the next and previous generation", async () => {
		startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Newest", created_at: hoursAgo(0.1) }),
				createTestGeneration({
					prompt: "Still running",
					status: "running",
					images: [],
					created_at: hoursAgo(0.2),
				}),
				createTestGeneration({ prompt: "Oldest", created_at: hoursAgo(0.3) }),
			],
		});
		const { user } = openHistory();
		await findCards();

		await user.click(
			within(findCard("Newest")).getByRole("button", { name: "Preview image 3 of 4" }),
		);
		await screen.findByRole("dialog", { name: "Image 3 of 4" });
		expect(screen.getByRole("button", { name: "Previous image" })).toBeEnabled();

		await user.keyboard("{ArrowRight}");
		expect(readShown()).toEqual({ title: "Image 4 of 4", prompt: "Newest" });
		// Past the last image: the next generation with images (the running one has none yet).
		await user.keyboard("{ArrowRight}");
		expect(readShown()).toEqual({ title: "Image 1 of 4", prompt: "Oldest" });
		await user.keyboard("{ArrowRight}{ArrowRight}{ArrowRight}");
		expect(readShown()).toEqual({ title: "Image 4 of 4", prompt: "Oldest" });
		expect(screen.getByRole("button", { name: "Next image" })).toBeDisabled();
		await user.keyboard("{ArrowRight}");
		expect(readShown()).toEqual({ title: "Image 4 of 4", prompt: "Oldest" });

		await user.keyboard("{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}");
		expect(readShown()).toEqual({ title: "Image 4 of 4", prompt: "Newest" });
		await user.click(screen.getByRole("button", { name: "Previous image" }));
		expect(readShown()).toEqual({ title: "Image 3 of 4", prompt: "Newest" });

		// Closed after moving, focus goes back to the card of what was shown.
		await user.keyboard("{ArrowRight}{ArrowRight}{Escape}");
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
		expect(
			within(findCard("Oldest")).getByRole("button", { name: "Preview image 1 of 4" }),
		).toHaveFocus();
	});

	it("loads the next page when the arrows reach the end of what is loaded", async () => {
		const generations = Array.from({ length: 26 }, (_, index) =>
			createTestGeneration({
				prompt: `Item ${index + 1}`,
				created_at: new Date(Date.now() - (index + 1) * 60_000).toISOString(),
			}),
		);
		const server = startFakeGenerationsApi({ generations });
		const { user } = openHistory();
		expect(await findCards()).toHaveLength(24);

		await user.click(
			within(findCard("Item 24")).getByRole("button", { name: "Preview image 4 of 4" }),
		);
		await screen.findByRole("dialog", { name: "Image 4 of 4" });
		await waitFor(() =>
			expect(server.readRequests("GET", "/api/generations").at(-1)?.search.get("cursor")).toBe(
				"after-24",
			),
		);
		await waitFor(() => expect(screen.getByRole("button", { name: "Next image" })).toBeEnabled());
		await user.keyboard("{ArrowRight}");
		expect(readShown()).toEqual({ title: "Image 1 of 4", prompt: "Item 25" });
	});

	it("offers the card's actions, and deletes from the preview after the same confirmation", async () => {
		const server = startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Delete me from the preview", created_at: hoursAgo(0.1) }),
				createTestGeneration({ prompt: "Stay", created_at: hoursAgo(0.2) }),
			],
		});
		const { user } = openHistory();
		await findCards();
		await user.click(
			within(findCard("Delete me from the preview")).getByRole("button", {
				name: "Preview image 1 of 4",
			}),
		);
		const dialog = await screen.findByRole("dialog");
		for (const name of ["Favourite", "Rerun", "Copy prompt", "Open Polling", "Delete"]) {
			expect(within(dialog).getByRole("button", { name })).toBeVisible();
		}
		for (const name of ["Download image", "Download all (ZIP)", "Use prompt", "Use settings"]) {
			expect(within(dialog).getByRole("link", { name })).toBeVisible();
		}

		await user.click(within(dialog).getByRole("button", { name: "Delete" }));

		const confirm = await screen.findByRole("alertdialog", { name: "Delete Generation?" });
		expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
		await user.click(within(confirm).getByRole("button", { name: "Delete" }));
		expect(await findToast("Generation deleted successfully")).toBeVisible();
		await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(1));
		expect(server.readRequests("DELETE")).toHaveLength(1);
	});

	it("shows the prompt as written beside the enhanced one it was made from", async () => {
		startFakeGenerationsApi({
			generations: [
				createTestGeneration({
					prompt: "A red fox, golden hour, highly detailed",
					originalPrompt: "A red fox",
					created_at: hoursAgo(0.1),
				}),
			],
		});
		const { user } = openHistory();
		await findCards();
		await user.click(
			within(findCard("A red fox, golden hour, highly detailed")).getByRole("button", {
				name: "Preview image 1 of 4",
			}),
		);
		const dialog = await screen.findByRole("dialog");
		const term = within(dialog).getByText("Original prompt");
		expect(term.nextElementSibling).toHaveTextContent("A red fox");
	});
});
