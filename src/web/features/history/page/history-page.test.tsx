import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SKELETON_CARDS } from "../../../../shared/core/constants";
import { formatGroupDate } from "../../../../shared/history/date-groups";
import { startFakeGenerationsApi } from "../../../testing/fakes/fake-generations-api";
import { createTestGeneration } from "../../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	daysAgoAtNoon,
	FakeIntersectionObserver,
	findCard,
	findCards,
	hoursAgo,
	openHistory,
	readPrompts,
	setUpHistoryScreen,
} from "../../../testing/history-screen";
import { findToast } from "../../../testing/toasts";

describe("the generations screen", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("shows 8 skeleton cards while the first page is on its way", async () => {
		const server = startFakeGenerationsApi({ generations: [createTestGeneration()] });
		const release = server.holdList();
		openHistory();

		// The first test also waits for the lazily loaded route to be compiled: allow for a busy machine.
		expect(
			await screen.findByRole(
				"heading",
				{ level: 1, name: "Saved Generations" },
				{ timeout: 10_000 },
			),
		).toBeVisible();
		expect(await screen.findByText("Loading generations")).toBeInTheDocument();
		expect(screen.getByTestId("generation-skeletons").children).toHaveLength(SKELETON_CARDS);
		expect(screen.queryByRole("article")).not.toBeInTheDocument();

		release();
		expect(await findCards()).toHaveLength(1);
		expect(screen.queryByTestId("generation-skeletons")).not.toBeInTheDocument();
	});

	it("groups a person's generations by day, newest first, with the server's counts", async () => {
		const newest = createTestGeneration({
			prompt: "Newest: a red fox in snow",
			created_at: hoursAgo(0.01),
		});
		const earlierToday = createTestGeneration({
			prompt: "Earlier today: a tea house in rain",
			created_at: hoursAgo(0.02),
		});
		const older = createTestGeneration({
			prompt: "Older: a desert at night",
			created_at: daysAgoAtNoon(3),
		});
		const oldest = createTestGeneration({
			prompt: "Oldest: a glacier",
			created_at: "2025-01-05T12:00:00.000Z",
		});
		startFakeGenerationsApi({ generations: [oldest, older, earlierToday, newest] });
		openHistory();

		await findCards();
		expect(screen.getByText("4 generations · 2 today")).toBeVisible();
		expect(screen.queryByText("Admin View")).not.toBeInTheDocument();

		const groups = screen.getAllByRole("heading", { level: 2 });
		expect(groups.map((heading) => heading.textContent)).toEqual([
			formatGroupDate(newest.created_at),
			formatGroupDate(older.created_at),
			"Jan 5, 2025",
		]);
		const firstDay = screen.getByRole("region", { name: formatGroupDate(newest.created_at) });
		expect(readPrompts(within(firstDay).getAllByRole("article"))).toEqual([
			"Newest: a red fox in snow",
			"Earlier today: a tea house in rain",
		]);
		expect(
			within(screen.getByRole("region", { name: "Jan 5, 2025" })).getByText("Oldest: a glacier"),
		).toBeVisible();
	});

	it("shows each card's thumbnails (at most 4, with their size), its actions, and no owner", async () => {
		const generation = createTestGeneration({ prompt: "Five images, four shown" });
		const fifth = generation.images[0];
		if (!fifth) throw new Error("the builder makes four images");
		generation.images.push({ ...fifth, thumbnailUrl: "/api/images/fifth-thumb.webp" });
		startFakeGenerationsApi({ generations: [generation] });
		openHistory();

		await findCards();
		const card = within(findCard("Five images, four shown"));
		const thumbnails = card.getAllByRole("button", { name: /^Preview image/ });
		expect(thumbnails).toHaveLength(4);
		const image = thumbnails[0]?.querySelector("img");
		expect(image).toHaveAttribute("src", generation.images[0]?.thumbnailUrl);
		expect(image).toHaveAttribute("width", "384");
		expect(image).toHaveAttribute("height", "384");
		expect(image).toHaveAttribute("loading", "lazy");
		expect(card.getByRole("button", { name: "Open Polling" })).toBeEnabled();
		expect(card.getByRole("button", { name: "Delete" })).toBeEnabled();
		expect(card.queryByText(/Owner/)).not.toBeInTheDocument();
	});

	it("shows the admin everyone's generations, each naming its owner", async () => {
		startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Alice's castle", owner_email: "alice@example.com" }),
				createTestGeneration({ prompt: "Bob's boat", owner_email: "bob@example.com" }),
			],
		});
		openHistory({ isAdmin: true });

		await findCards();
		const main = within(screen.getByRole("main"));
		expect(main.getByRole("heading", { level: 1, name: "All Generations" })).toBeVisible();
		expect(main.getByText("Admin")).toBeVisible();
		expect(main.getByText("Admin View")).toBeVisible();
		expect(within(findCard("Alice's castle")).getByText("alice@example.com")).toBeVisible();
		expect(within(findCard("Bob's boat")).getByText("bob@example.com")).toBeVisible();
	});

	it("says so when there are no generations", async () => {
		startFakeGenerationsApi({ generations: [] });
		openHistory();

		expect(await screen.findByRole("heading", { name: "No generations found" })).toBeVisible();
		expect(screen.getByText("Your saved AI generations will appear here.")).toBeVisible();
		expect(screen.getByText("0 generations · 0 today")).toBeVisible();
		expect(screen.getByRole("link", { name: "Create an image" })).toHaveAttribute("href", "/");
	});

	it("says the load failed and loads again on Try Again", async () => {
		const server = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Back after a failure" })],
			listFailure: "SERVICE_UNAVAILABLE",
		});
		const { user } = openHistory();

		const alert = await screen.findByRole("alert");
		expect(alert).toHaveTextContent("Failed to load generations. Please try again.");
		expect(screen.queryByText(/generations ·/)).not.toBeInTheDocument();

		server.setListFailure(undefined);
		await user.click(within(alert).getByRole("button", { name: "Try Again" }));

		expect(await screen.findByRole("article", { name: "Back after a failure" })).toBeVisible();
		expect(
			screen.queryByText("Failed to load generations. Please try again."),
		).not.toBeInTheDocument();
	});

	it("asks before deleting, and Cancel deletes nothing", async () => {
		const server = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Keep me" })],
		});
		const { user } = openHistory();
		await findCards();

		const deleteButton = within(findCard("Keep me")).getByRole("button", { name: "Delete" });
		await user.click(deleteButton);
		const dialog = await screen.findByRole("alertdialog", { name: "Delete Generation?" });
		expect(
			within(dialog).getByText(
				"This action cannot be undone. Do you really want to delete this generation?",
			),
		).toBeVisible();

		await user.click(within(dialog).getByRole("button", { name: "Cancel" }));

		await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
		expect(findCard("Keep me")).toBeVisible();
		expect(server.readRequests("DELETE")).toHaveLength(0);
		expect(deleteButton).toHaveFocus();
	});

	it("deletes after confirmation: every Delete waits meanwhile, then a toast and a reloaded list", async () => {
		const server = startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Delete me", created_at: hoursAgo(0.01) }),
				createTestGeneration({ prompt: "Stay", created_at: hoursAgo(0.02) }),
			],
		});
		const { user } = openHistory();
		await findCards();
		expect(screen.getByText("2 generations · 2 today")).toBeVisible();
		const listRequestsBefore = server.readRequests("GET", "/api/generations").length;
		const release = server.holdDelete();

		await user.click(within(findCard("Delete me")).getByRole("button", { name: "Delete" }));
		const dialog = await screen.findByRole("alertdialog", { name: "Delete Generation?" });
		await user.click(within(dialog).getByRole("button", { name: "Delete" }));

		await waitFor(() =>
			expect(within(findCard("Stay")).getByRole("button", { name: "Delete" })).toBeDisabled(),
		);
		expect(within(findCard("Delete me")).getByRole("button", { name: "Delete" })).toBeDisabled();

		release();

		expect(await findToast("Generation deleted successfully")).toBeVisible();
		await waitFor(() =>
			expect(screen.queryByRole("article", { name: "Delete me" })).not.toBeInTheDocument(),
		);
		await waitFor(() =>
			expect(server.readRequests("GET", "/api/generations").length).toBeGreaterThan(
				listRequestsBefore,
			),
		);
		expect(screen.getByText("1 generation · 1 today")).toBeVisible();
		expect(server.readRequests("DELETE")).toHaveLength(1);
		expect(within(findCard("Stay")).getByRole("button", { name: "Delete" })).toBeEnabled();
		expect(findCard("Stay")).toHaveFocus();
	});

	it("says a delete failed, and keeps the card", async () => {
		const server = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Cannot go" })],
		});
		server.setDeleteFailure("SERVICE_UNAVAILABLE");
		const { user } = openHistory();
		await findCards();

		await user.click(within(findCard("Cannot go")).getByRole("button", { name: "Delete" }));
		await user.click(
			within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete" }),
		);

		expect(await findToast("Failed to delete generation. Please try again.")).toBeVisible();
		expect(screen.queryByText("Generation deleted successfully")).not.toBeInTheDocument();
		expect(findCard("Cannot go")).toBeVisible();
		await waitFor(() =>
			expect(within(findCard("Cannot go")).getByRole("button", { name: "Delete" })).toBeEnabled(),
		);
	});

	it("opens the polling URL in a new tab, or says there is none", async () => {
		const withUrl = createTestGeneration({ prompt: "Has a polling URL" });
		startFakeGenerationsApi({
			generations: [withUrl, createTestGeneration({ prompt: "No polling URL", polling_url: null })],
		});
		const open = vi.spyOn(window, "open").mockImplementation(() => null);
		const { user } = openHistory();
		await findCards();

		await user.click(
			within(findCard("Has a polling URL")).getByRole("button", { name: "Open Polling" }),
		);
		expect(open).toHaveBeenCalledWith(
			`${window.location.origin}${withUrl.polling_url}`,
			"_blank",
			"noopener,noreferrer",
		);

		await user.click(
			within(findCard("No polling URL")).getByRole("button", { name: "Open Polling" }),
		);
		expect(await findToast("Polling URL not available for this generation")).toBeVisible();
		expect(open).toHaveBeenCalledOnce();
	});

	it("previews an image with its prompt, date and time, and aspect ratio; Escape, Close and outside close it", async () => {
		const generation = createTestGeneration({
			prompt: "A wide mountain valley",
			aspect_ratio: "--ar 16:9",
			created_at: "2025-01-05T12:34:00.000Z",
		});
		startFakeGenerationsApi({ generations: [generation] });
		const { user } = openHistory();
		await findCards();
		const card = within(findCard("A wide mountain valley"));

		const secondThumbnail = card.getByRole("button", { name: "Preview image 2 of 4" });
		await user.click(secondThumbnail);
		let dialog = await screen.findByRole("dialog", { name: "Image 2 of 4" });
		expect(within(dialog).getByText("A wide mountain valley")).toBeVisible();
		expect(within(dialog).getByText(/^Jan 5, 2025, \d{1,2}:\d{2}\s?[AP]M$/)).toBeVisible();
		expect(within(dialog).getByText("16:9 · Landscape (widescreen)")).toBeVisible();
		expect(within(dialog).getByRole("img", { name: /A wide mountain valley/ })).toHaveAttribute(
			"src",
			generation.images[1]?.url,
		);
		expect(document.body).toHaveAttribute("data-scroll-locked");

		await user.click(within(dialog).getByRole("button", { name: "Show image 4 of 4" }));
		expect(await screen.findByRole("dialog", { name: "Image 4 of 4" })).toBeVisible();

		await user.keyboard("{Escape}");
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
		expect(document.body).not.toHaveAttribute("data-scroll-locked");
		expect(secondThumbnail).toHaveFocus();

		await user.click(card.getByRole("button", { name: "Preview image 1 of 4" }));
		dialog = await screen.findByRole("dialog", { name: "Image 1 of 4" });
		await user.click(within(dialog).getByRole("button", { name: "Close" }));
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

		await user.click(card.getByRole("button", { name: "Preview image 1 of 4" }));
		await screen.findByRole("dialog");
		const overlay = document.querySelector("[data-state='open'].fixed.inset-0");
		if (!overlay) throw new Error("no overlay");
		await user.pointer({ keys: "[MouseLeft]", target: overlay });
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
	});

	it("loads the next cursor page as the end of the list comes near, until there is no more", async () => {
		const generations = Array.from({ length: 30 }, (_, index) =>
			createTestGeneration({
				prompt: `Page item ${index + 1}`,
				created_at: new Date(Date.now() - (index + 1) * 60_000).toISOString(),
			}),
		);
		const server = startFakeGenerationsApi({ generations });
		openHistory();

		expect(await findCards()).toHaveLength(24);
		expect(screen.getByText("30 generations · 30 today")).toBeVisible();
		expect(server.readRequests("GET", "/api/generations")).toHaveLength(1);

		FakeIntersectionObserver.scrollToEnd();

		await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(30));
		const pages = server.readRequests("GET", "/api/generations");
		expect(pages).toHaveLength(2);
		expect(pages[1]?.search.get("cursor")).toBe("after-24");
		expect(await screen.findByText("You have reached the end of the history.")).toBeVisible();

		FakeIntersectionObserver.scrollToEnd();
		expect(server.readRequests("GET", "/api/generations")).toHaveLength(2);
	});

	it("offers Load more, and Try Again when a later page fails", async () => {
		const generations = Array.from({ length: 26 }, (_, index) =>
			createTestGeneration({ created_at: new Date(Date.now() - index * 60_000).toISOString() }),
		);
		const server = startFakeGenerationsApi({ generations });
		const { user } = openHistory();
		await findCards();

		server.setListFailure("SERVICE_UNAVAILABLE");
		await user.click(screen.getByRole("button", { name: "Load more" }));
		const alert = await screen.findByRole("alert");
		expect(alert).toHaveTextContent("Failed to load generations. Please try again.");
		expect(screen.getAllByRole("article")).toHaveLength(24);

		server.setListFailure(undefined);
		await user.click(within(alert).getByRole("button", { name: "Try Again" }));
		await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(26));
	});

	it("shows a running generation in progress until it completes by itself", async () => {
		const running = createTestGeneration({
			prompt: "Still painting",
			status: "running",
			images: [],
			completed_at: null,
		});
		const server = startFakeGenerationsApi({ generations: [running] });
		openHistory();

		const card = within(await screen.findByRole("article", { name: "Still painting" }));
		expect(card.getByText("Generating…")).toBeVisible();
		expect(card.queryByRole("button", { name: /^Preview image/ })).not.toBeInTheDocument();
		await waitFor(() =>
			expect(
				server.readRequests("GET", `/api/generations/${running.id}/status`).length,
			).toBeGreaterThan(0),
		);

		server.updateGeneration(
			createTestGeneration({
				...running,
				status: "completed",
				images: createTestGeneration().images,
			}),
		);

		await waitFor(
			() => expect(card.getAllByRole("button", { name: /^Preview image/ })).toHaveLength(4),
			{ timeout: 4000 },
		);
		expect(card.queryByText("Generating…")).not.toBeInTheDocument();
	});

	it("shows a failed generation with its message", async () => {
		startFakeGenerationsApi({
			generations: [
				createTestGeneration({
					prompt: "Did not work",
					status: "failed",
					error: "Generation timed out",
					images: [],
				}),
			],
		});
		openHistory();

		const card = within(await screen.findByRole("article", { name: "Did not work" }));
		expect(card.getByText("Generation timed out")).toBeVisible();
		expect(card.getByText("Failed")).toBeVisible();
		expect(card.getByRole("button", { name: "Delete" })).toBeEnabled();
	});

	it("goes one step back in history with Back", async () => {
		startFakeGenerationsApi({ generations: [] });
		const { user, readLocation } = openHistory({ path: "/no/such/page" });

		// The 404 screen loads on demand: wait for it, not for the loading screen's <main>.
		await screen.findByRole("heading", { level: 1, name: "Page Not Found" });
		await user.click(
			within(screen.getByRole("main")).getByRole("link", { name: "View Generations" }),
		);
		await screen.findByRole("heading", { level: 1, name: "Saved Generations" });
		await user.click(screen.getByRole("button", { name: "Back" }));

		await waitFor(() => expect(readLocation()).toBe("/no/such/page"));
	});

	it("goes home with Back when the history was opened directly", async () => {
		startFakeGenerationsApi({ generations: [] });
		const { user, readLocation } = openHistory();

		await screen.findByRole("heading", { level: 1, name: "Saved Generations" });
		await user.click(screen.getByRole("button", { name: "Back" }));

		await waitFor(() => expect(readLocation()).toBe("/"));
	});
});
