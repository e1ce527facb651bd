// The favourite star on each card and in the preview: shown at once, kept on the server, put back
// with a toast when the server refuses.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createTestGeneration } from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	findCard,
	findCards,
	openHistory,
	readPrompts,
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { findToast } from "../../testing/toasts";

function getStar(prompt: string) {
	return within(findCard(prompt)).getByRole("button", { name: "Favourite" });
}

describe("favourites", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("stars a generation at once and keeps it on the server; a second press takes it away", async () => {
		const generation = createTestGeneration({ prompt: "A koi pond" });
		const server = startFakeGenerationsApi({
			generations: [
				generation,
				createTestGeneration({ prompt: "Already a favourite", is_favorite: true }),
			],
		});
		const { user } = openHistory();
		await findCards();
		expect(getStar("A koi pond")).toHaveAttribute("aria-pressed", "false");
		expect(getStar("Already a favourite")).toHaveAttribute("aria-pressed", "true");

		const release = server.holdFavorite();
		await user.click(getStar("A koi pond"));
		// Before the server has answered.
		expect(getStar("A koi pond")).toHaveAttribute("aria-pressed", "true");
		release();

		await waitFor(() =>
			expect(server.readGenerations().find((item) => item.id === generation.id)?.is_favorite).toBe(
				true,
			),
		);
		const [request] = server.readRequests("PUT");
		expect(request?.path).toBe(`/api/generations/${generation.id}/favorite`);
		expect(request?.body).toEqual({ favorite: true });

		await user.click(getStar("A koi pond"));
		expect(getStar("A koi pond")).toHaveAttribute("aria-pressed", "false");
		await waitFor(() =>
			expect(server.readGenerations().find((item) => item.id === generation.id)?.is_favorite).toBe(
				false,
			),
		);
	});

	it("puts the star back and says so when the server refuses", async () => {
		const server = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Not allowed" })],
		});
		server.setFailure("favorite", "SERVICE_UNAVAILABLE");
		const { user } = openHistory();
		await findCards();

		const release = server.holdFavorite();
		await user.click(getStar("Not allowed"));
		expect(getStar("Not allowed")).toHaveAttribute("aria-pressed", "true");
		release();

		expect(await findToast("Failed to update the favourite. Please try again.")).toBeVisible();
		expect(getStar("Not allowed")).toHaveAttribute("aria-pressed", "false");
	});

	it("stars from the preview too, and the card shows it", async () => {
		startFakeGenerationsApi({ generations: [createTestGeneration({ prompt: "A glacier" })] });
		const { user } = openHistory();
		await findCards();

		await user.click(
			within(findCard("A glacier")).getByRole("button", { name: "Preview image 1 of 4" }),
		);
		const dialog = await screen.findByRole("dialog", { name: "Image 1 of 4" });
		const star = within(dialog).getByRole("button", { name: "Favourite" });
		expect(star).toHaveAttribute("aria-pressed", "false");

		await user.click(star);

		expect(star).toHaveAttribute("aria-pressed", "true");
		await user.keyboard("{Escape}");
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
		expect(getStar("A glacier")).toHaveAttribute("aria-pressed", "true");
	});

	it("lists the favourites only, and a star taken away there stays until the next load", async () => {
		startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Loved", is_favorite: true }),
				createTestGeneration({ prompt: "Plain" }),
			],
		});
		const { user } = openHistory({ path: "/generations?favorites=true" });
		expect(readPrompts(await findCards())).toEqual(["Loved"]);

		await user.click(getStar("Loved"));

		expect(getStar("Loved")).toHaveAttribute("aria-pressed", "false");
		expect(findCard("Loved")).toBeVisible();
		await user.click(screen.getByRole("button", { name: "Favourites only" }));
		await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(2));
		await user.click(screen.getByRole("button", { name: "Favourites only" }));
		expect(await screen.findByRole("heading", { name: "No generations match" })).toBeVisible();
	});
});
