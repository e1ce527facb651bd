// Downloads (an image, a generation's ZIP) and reuse (Use prompt, Rerun, Copy prompt), from the
// card's menu and from the preview.

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

async function openMenu(user: ReturnType<typeof openHistory>["user"], prompt: string) {
	await user.click(within(findCard(prompt)).getByRole("button", { name: "More actions" }));
	return screen.findByRole("menu");
}

describe("downloads", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("downloads the shown image's original and the whole generation from the preview", async () => {
		const generation = createTestGeneration({ prompt: "A harbour at dawn" });
		startFakeGenerationsApi({ generations: [generation] });
		const { user } = openHistory();
		await findCards();

		await user.click(
			within(findCard("A harbour at dawn")).getByRole("button", { name: "Preview image 3 of 4" }),
		);
		const dialog = await screen.findByRole("dialog", { name: "Image 3 of 4" });

		// Plain links: the server names the file and the browser streams it to disk.
		const image = within(dialog).getByRole("link", { name: "Download image" });
		expect(image).toHaveAttribute("href", `/api/generations/${generation.id}/images/2/download`);
		expect(image).toHaveAttribute("download");
		const archive = within(dialog).getByRole("link", { name: "Download all (ZIP)" });
		expect(archive).toHaveAttribute("href", `/api/generations/${generation.id}/archive`);
		expect(archive).toHaveAttribute("download");

		await user.click(within(dialog).getByRole("button", { name: "Show image 1 of 4" }));
		expect(within(dialog).getByRole("link", { name: "Download image" })).toHaveAttribute(
			"href",
			`/api/generations/${generation.id}/images/0/download`,
		);
	});

	it("downloads a generation as a ZIP from its card's menu, when it has images", async () => {
		const done = createTestGeneration({ prompt: "Finished" });
		startFakeGenerationsApi({
			generations: [
				done,
				createTestGeneration({ prompt: "Still running", status: "running", images: [] }),
			],
		});
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "Finished");
		const item = within(menu).getByRole("menuitem", { name: "Download all (ZIP)" });
		expect(item).toHaveAttribute("href", `/api/generations/${done.id}/archive`);
		expect(item).toHaveAttribute("download");
		await user.keyboard("{Escape}");
		await waitFor(() => expect(screen.queryByRole("menu")).not.toBeInTheDocument());

		const running = await openMenu(user, "Still running");
		expect(
			within(running).queryByRole("menuitem", { name: "Download all (ZIP)" }),
		).not.toBeInTheDocument();
	});
});

describe("reuse", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("opens the generator with the prompt and ratio filled in (Use prompt)", async () => {
		startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "A wide valley", aspect_ratio: "--ar 16:9" })],
		});
		const { user, readLocation } = openHistory();
		await findCards();

		const menu = await openMenu(user, "A wide valley");
		await user.click(within(menu).getByRole("menuitem", { name: "Use prompt" }));

		const prompt = await screen.findByRole("textbox", { name: "Prompt" });
		expect(prompt).toHaveValue("A wide valley");
		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toHaveTextContent(
			"Landscape (widescreen)",
		);
		// Read once: a reload shows an empty form.
		await waitFor(() => expect(readLocation()).toBe("/"));
	});

	it("offers Use prompt in the preview too", async () => {
		startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "A tall tower", aspect_ratio: "--ar 9:16" })],
		});
		const { user } = openHistory();
		await findCards();
		await user.click(
			within(findCard("A tall tower")).getByRole("button", { name: "Preview image 1 of 4" }),
		);
		const dialog = await screen.findByRole("dialog");

		expect(within(dialog).getByRole("link", { name: "Use prompt" })).toHaveAttribute(
			"href",
			"/?prompt=A+tall+tower&ratio=9%3A16&model=local&count=4",
		);
	});

	it("runs a generation again at once and shows it in progress at the top (Rerun)", async () => {
		const server = startFakeGenerationsApi({
			generations: [
				createTestGeneration({
					prompt: "Run me again",
					aspect_ratio: "--ar 3:2",
					created_at: hoursAgo(1),
				}),
			],
		});
		const { user } = openHistory();
		await findCards();
		expect(screen.getByText("1 generation · 1 today")).toBeVisible();

		const menu = await openMenu(user, "Run me again");
		await user.click(within(menu).getByRole("menuitem", { name: "Rerun" }));

		expect(await findToast("Rerun started")).toBeVisible();
		expect(server.readCreateRequests()).toEqual([
			{
				prompt: "Run me again",
				aspectRatio: "--ar 3:2",
				model: "local",
				count: 4,
				negativePrompt: null,
				quality: null,
			},
		]);
		await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(2));
		const [newest] = screen.getAllByRole("article");
		if (!newest) throw new Error("no card");
		expect(readPrompts([newest])).toEqual(["Run me again"]);
		expect(within(newest).getByText("Queued")).toBeVisible();
		expect(screen.getByText("2 generations · 2 today")).toBeVisible();
	});

	it("shows the server's message when a rerun is refused (a quota)", async () => {
		const server = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Over the limit" })],
		});
		server.setFailure("create", "QUOTA_EXCEEDED");
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "Over the limit");
		await user.click(within(menu).getByRole("menuitem", { name: "Rerun" }));

		expect(
			await findToast("You have reached the limit of generations. Please try again later."),
		).toBeVisible();
		expect(screen.getAllByRole("article")).toHaveLength(1);
	});

	it("copies the prompt and says so (Copy prompt), from the card and the preview", async () => {
		startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Copy this prompt, 8k" })],
		});
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "Copy this prompt, 8k");
		await user.click(within(menu).getByRole("menuitem", { name: "Copy prompt" }));

		expect(await findToast("Prompt copied")).toBeVisible();
		expect(await navigator.clipboard.readText()).toBe("Copy this prompt, 8k");

		await navigator.clipboard.writeText("");
		await user.click(
			within(findCard("Copy this prompt, 8k")).getByRole("button", {
				name: "Preview image 1 of 4",
			}),
		);
		await user.click(
			within(await screen.findByRole("dialog")).getByRole("button", { name: "Copy prompt" }),
		);
		await waitFor(async () =>
			expect(await navigator.clipboard.readText()).toBe("Copy this prompt, 8k"),
		);
	});
});
