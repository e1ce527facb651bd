// Search by prompt and the filters (aspect ratio, favourites, and the administrator's person),
// all kept in the address.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatGroupDate } from "../../../shared/history/date-groups";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createTestGeneration } from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	daysAgoAtNoon,
	findCards,
	hoursAgo,
	openHistory,
	readPrompts,
	setUpHistoryScreen,
} from "../../testing/history-screen";

function createHistory() {
	return [
		createTestGeneration({ prompt: "A red fox in snow", created_at: hoursAgo(0.1) }),
		createTestGeneration({
			prompt: "A tea house in rain",
			aspect_ratio: "--ar 16:9",
			created_at: hoursAgo(0.2),
		}),
		createTestGeneration({
			prompt: "Fox cubs at dawn",
			aspect_ratio: "--ar 16:9",
			is_favorite: true,
			created_at: daysAgoAtNoon(2),
		}),
		createTestGeneration({ prompt: "A desert at night", created_at: daysAgoAtNoon(2) }),
		createTestGeneration({
			prompt: "An arctic FOX asleep",
			created_at: "2025-01-05T12:00:00.000Z",
			is_favorite: true,
		}),
	];
}

function getSearchBox() {
	return screen.getByRole("searchbox", { name: "Search prompts" });
}

function listRequestsWith(server: ReturnType<typeof startFakeGenerationsApi>, name: string) {
	return server
		.readRequests("GET", "/api/generations")
		.filter((request) => request.search.has(name))
		.map((request) => request.search);
}

describe("searching the history", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("searches every prompt on the server once typing pauses, keeping the day groups and saying how many match", async () => {
		const server = startFakeGenerationsApi({ generations: createHistory() });
		const { user, readLocation } = openHistory();
		await findCards();
		expect(screen.getByText("5 generations · 2 today")).toBeVisible();

		await user.type(getSearchBox(), "fox");

		expect(await screen.findByText("3 generations match · 1 today")).toBeVisible();
		expect(readPrompts(screen.getAllByRole("article"))).toEqual([
			"A red fox in snow",
			"Fox cubs at dawn",
			"An arctic FOX asleep",
		]);
		expect(
			screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent),
		).toEqual([formatGroupDate(hoursAgo(0.1)), formatGroupDate(daysAgoAtNoon(2)), "Jan 5, 2025"]);
		expect(readLocation()).toBe("/generations?q=fox");
		// One request for the whole word, not one per letter.
		expect(listRequestsWith(server, "q").map((search) => search.get("q"))).toEqual(["fox"]);
	});

	it("opens with the search the address holds, and one step back is the whole history", async () => {
		startFakeGenerationsApi({ generations: createHistory() });
		const { user, readLocation } = openHistory();
		await findCards();

		await user.type(getSearchBox(), "fox");
		await screen.findByText("3 generations match · 1 today");
		// Refining the search replaces the address: Back leaves the search, not one word of it.
		await user.type(getSearchBox(), " in");
		await screen.findByText("1 generation matches · 1 today");
		expect(readLocation()).toBe("/generations?q=fox+in");

		await user.click(screen.getByRole("button", { name: "Back" }));

		await screen.findByText("5 generations · 2 today");
		expect(readLocation()).toBe("/generations");
		expect(getSearchBox()).toHaveValue("");
		expect(screen.getAllByRole("article")).toHaveLength(5);
	});

	it("shows a search opened from its address (a reload, a shared link)", async () => {
		const server = startFakeGenerationsApi({ generations: createHistory() });
		openHistory({ path: "/generations?q=desert" });

		expect(await screen.findByText("1 generation matches · 0 today")).toBeVisible();
		expect(readPrompts(await findCards())).toEqual(["A desert at night"]);
		expect(getSearchBox()).toHaveValue("desert");
		expect(server.readRequests("GET", "/api/generations")[0]?.search.get("q")).toBe("desert");
	});

	it("says when nothing matches, and offers to clear the search", async () => {
		startFakeGenerationsApi({ generations: createHistory() });
		const { user, readLocation } = openHistory();
		await findCards();

		await user.type(getSearchBox(), "zebra{Enter}");

		expect(await screen.findByRole("heading", { name: "No generations match" })).toBeVisible();
		expect(screen.getByText("Nothing in this history matches “zebra”.")).toBeVisible();
		expect(screen.getByText("0 generations match · 0 today")).toBeVisible();
		expect(screen.queryByText("No generations found")).not.toBeInTheDocument();

		await user.click(screen.getByRole("button", { name: "Clear search" }));

		expect(await screen.findByText("5 generations · 2 today")).toBeVisible();
		expect(await findCards()).toHaveLength(5);
		expect(getSearchBox()).toHaveValue("");
		expect(readLocation()).toBe("/generations");
	});

	it("filters by aspect ratio and by favourites, combined with the search, all in the address", async () => {
		const server = startFakeGenerationsApi({ generations: createHistory() });
		const { user, readLocation } = openHistory();
		await findCards();

		await user.selectOptions(
			screen.getByRole("combobox", { name: "Aspect ratio" }),
			"16:9 · Landscape (widescreen)",
		);
		expect(await screen.findByText("2 generations match · 1 today")).toBeVisible();
		expect(readPrompts(screen.getAllByRole("article"))).toEqual([
			"A tea house in rain",
			"Fox cubs at dawn",
		]);

		const favouritesOnly = screen.getByRole("button", { name: "Favourites only" });
		await user.click(favouritesOnly);
		expect(favouritesOnly).toHaveAttribute("aria-pressed", "true");
		expect(await screen.findByText("1 generation matches · 0 today")).toBeVisible();
		expect(readPrompts(screen.getAllByRole("article"))).toEqual(["Fox cubs at dawn"]);

		await user.type(getSearchBox(), "tea");
		expect(await screen.findByRole("heading", { name: "No generations match" })).toBeVisible();
		expect(
			screen.getByText("Nothing in this history matches “tea” with these filters."),
		).toBeVisible();
		expect(readLocation()).toBe("/generations?ratio=16%3A9&favorites=true&q=tea");
		const last = server.readRequests("GET", "/api/generations").at(-1)?.search;
		expect(last?.get("ratio")).toBe("--ar 16:9");
		expect(last?.get("favorites")).toBe("true");
		expect(last?.get("q")).toBe("tea");

		await user.click(screen.getByRole("button", { name: "Clear search and filters" }));
		expect(await screen.findByText("5 generations · 2 today")).toBeVisible();
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveValue("");
		expect(favouritesOnly).toHaveAttribute("aria-pressed", "false");
		expect(readLocation()).toBe("/generations");
	});

	it("shows filters opened from the address, and ignores what does not make sense there", async () => {
		const server = startFakeGenerationsApi({ generations: createHistory() });
		openHistory({ path: "/generations?favorites=true&ratio=7:5&owner=someone@example.com" });

		expect(await screen.findByText("2 generations match · 0 today")).toBeVisible();
		expect(screen.getByRole("button", { name: "Favourites only" })).toHaveAttribute(
			"aria-pressed",
			"true",
		);
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveValue("");
		const sent = server.readRequests("GET", "/api/generations")[0]?.search;
		expect(sent?.has("ratio")).toBe(false);
		// Only the administrator filters by person.
		expect(sent?.has("owner")).toBe(false);
		expect(screen.queryByRole("combobox", { name: "Person (e-mail)" })).not.toBeInTheDocument();
	});

	it("lets the administrator filter by person, with the search", async () => {
		const server = startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Alice's fox", owner_email: "alice@example.com" }),
				createTestGeneration({ prompt: "Alice's castle", owner_email: "alice@example.com" }),
				createTestGeneration({ prompt: "Bob's fox", owner_email: "bob@example.com" }),
			],
		});
		const { user, readLocation } = openHistory({ isAdmin: true });
		await findCards();
		const person = screen.getByRole("combobox", { name: "Person (e-mail)" });

		// Half an address is not sent: it could only find nobody.
		await user.type(person, "alice{Enter}");
		expect(screen.getByText("Enter a whole e-mail address.")).toBeVisible();
		expect(listRequestsWith(server, "owner")).toHaveLength(0);

		await user.type(person, "@example.com{Enter}");
		expect(await screen.findByText("2 generations match · 2 today")).toBeVisible();
		expect(readLocation()).toBe("/generations?owner=alice%40example.com");
		const cards = screen.getAllByRole("article");
		expect(readPrompts(cards).sort()).toEqual(["Alice's castle", "Alice's fox"]);
		for (const card of cards) expect(within(card).getByText("alice@example.com")).toBeVisible();

		await user.type(getSearchBox(), "fox");
		await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(1));
		expect(screen.getByText("1 generation matches · 1 today")).toBeVisible();
		const last = listRequestsWith(server, "owner").at(-1);
		expect(last?.get("owner")).toBe("alice@example.com");
		expect(last?.get("q")).toBe("fox");
	});
});
