// Vary, Upscale and Edit from the history (a card's menu, the preview), and an image's family in
// the preview: "Made from", "Made from this", "The original was deleted".

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	generatorReferenceImage,
	imageMadeFrom,
	imageMadeFromThis,
	imageOriginalDeleted,
	imageOriginalInTrash,
	imageUpscaleResamplesShort,
	imageUpscaleStarted,
	imageVaryStarted,
} from "../../../shared/i18n/messages";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import {
	createTestGeneration,
	createTestImages,
	createTestModel,
} from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	findCard,
	findCards,
	hoursAgo,
	openHistory,
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { findToast } from "../../testing/toasts";

beforeEach(setUpHistoryScreen);
afterEach(cleanUpHistoryScreen);

const PAINTER = createTestModel({ imageInput: true, upscale: [2, 4] });

async function openMenu(user: ReturnType<typeof openHistory>["user"], prompt: string) {
	await user.click(within(findCard(prompt)).getByRole("button", { name: "More actions" }));
	return screen.findByRole("menu");
}

/** Picks image `number` in the submenu of `item`, with the keyboard, as the menu offers it. */
async function pickImage(
	user: ReturnType<typeof openHistory>["user"],
	item: HTMLElement,
	number: number,
) {
	item.focus();
	await user.keyboard("{ArrowRight}");
	const images = await screen.findByRole("menu", { name: item.textContent ?? "" });
	await waitFor(() =>
		expect(within(images).getByRole("menuitem", { name: "Image 1" })).toHaveFocus(),
	);
	for (let step = 1; step < number; step += 1) await user.keyboard("{ArrowDown}");
	expect(within(images).getByRole("menuitem", { name: `Image ${number}` })).toHaveFocus();
	await user.keyboard("{Enter}");
}

describe("actions from the history", () => {
	it("starts a variation of the image picked in a card's menu, shown as a running card", async () => {
		const parent = createTestGeneration({ prompt: "A harbour at dawn", created_at: hoursAgo(1) });
		const server = startFakeGenerationsApi({ generations: [parent], models: [PAINTER] });
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "A harbour at dawn");
		await pickImage(user, await within(menu).findByRole("menuitem", { name: "Vary (subtle)" }), 2);

		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toEqual({
			action: "vary-subtle",
			reference: { generationId: parent.id, imageIndex: 1 },
		});
		expect(await findToast(imageVaryStarted())).toBeVisible();
		// The list reloads: the variation is there, queued, with the parent's prompt.
		await waitFor(() => expect(screen.getAllByText("A harbour at dawn")).toHaveLength(2));
		expect(await screen.findByText("Queued")).toBeVisible();
	});

	it("upscales the image shown in the preview by the factor chosen, and links Edit to the generator", async () => {
		const parent = createTestGeneration({ prompt: "A harbour at dawn" });
		const server = startFakeGenerationsApi({ generations: [parent], models: [PAINTER] });
		const { user } = openHistory();
		await findCards();

		await user.click(
			within(findCard("A harbour at dawn")).getByRole("button", { name: "Preview image 3 of 4" }),
		);
		const dialog = await screen.findByRole("dialog", { name: "Image 3 of 4" });
		const actions = await within(dialog).findByRole("group", {
			name: "Make more from this image: image 3 of 4",
		});
		await user.click(within(actions).getByRole("button", { name: "Upscale 4×" }));

		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toEqual({
			action: "upscale",
			reference: { generationId: parent.id, imageIndex: 2 },
			factor: 4,
		});
		expect(await findToast(imageUpscaleStarted())).toBeVisible();

		await user.click(within(actions).getByRole("button", { name: "Edit" }));
		// The generator opens with the prompt, the ratio, the model and the image as its reference.
		expect(await screen.findByRole("textbox", { name: "Prompt" })).toHaveValue("A harbour at dawn");
		expect(await screen.findByRole("img", { name: generatorReferenceImage() })).toHaveAttribute(
			"src",
			`/api/images/generations/${parent.id}/2-thumb.webp`,
		);
	});

	it("shows the server's refusal of a start (the quota) in a toast", async () => {
		const parent = createTestGeneration({ prompt: "A harbour at dawn" });
		startFakeGenerationsApi({
			generations: [parent],
			models: [PAINTER],
			start: { kind: "refused", code: "QUOTA_EXCEEDED" },
		});
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "A harbour at dawn");
		await pickImage(user, await within(menu).findByRole("menuitem", { name: "Upscale 2×" }), 1);

		expect(
			await findToast("You have reached the limit of generations. Please try again later."),
		).toBeVisible();
	});

	it("says under Upscale in a card's menu that the model that will upscale only resamples", async () => {
		const single = createTestGeneration({
			id: "00000000-0000-4000-8000-0000000f0001",
			prompt: "A lone harbour light",
			images: createTestImages("00000000-0000-4000-8000-0000000f0001", "--ar 1:1", 1),
			created_at: hoursAgo(1),
		});
		const several = createTestGeneration({ prompt: "A harbour at dawn", created_at: hoursAgo(2) });
		startFakeGenerationsApi({
			generations: [single, several],
			models: [createTestModel({ imageInput: true, upscale: [2, 4], upscaleResamples: true })],
		});
		const { user } = openHistory();
		await findCards();

		// An item of its own for a generation of one image, the submenu's trigger for several.
		for (const prompt of ["A lone harbour light", "A harbour at dawn"]) {
			const menu = await openMenu(user, prompt);
			for (const name of ["Upscale 2×", "Upscale 4×"]) {
				expect(within(menu).getByRole("menuitem", { name })).toHaveAccessibleDescription(
					imageUpscaleResamplesShort(),
				);
			}
			expect(
				within(menu).getByRole("menuitem", { name: "Vary (subtle)" }),
			).not.toHaveAccessibleDescription();
			await user.keyboard("{Escape}");
			await waitFor(() => expect(screen.queryByRole("menu")).not.toBeInTheDocument());
		}
	});

	it("offers neither Vary nor Edit where the model takes no image", async () => {
		startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "A harbour at dawn" })],
			models: [createTestModel()],
		});
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "A harbour at dawn");
		expect(within(menu).getByRole("menuitem", { name: "Rerun" })).toBeVisible();
		expect(within(menu).queryByRole("menuitem", { name: "Vary (subtle)" })).not.toBeInTheDocument();
		expect(within(menu).queryByRole("menuitem", { name: "Edit" })).not.toBeInTheDocument();
	});
});

describe("the family in the preview", () => {
	function createFamily() {
		const parent = createTestGeneration({
			prompt: "A harbour at dawn",
			created_at: hoursAgo(2),
			model: { id: PAINTER.id, label: PAINTER.label },
		});
		const childId = "00000000-0000-4000-8000-0000000c0001";
		const child = createTestGeneration({
			id: childId,
			prompt: "A harbour at dawn",
			created_at: hoursAgo(1),
			images: createTestImages(childId, "--ar 1:1", 1),
			parent: { generationId: parent.id, imageIndex: 2, action: "upscale", exists: true },
		});
		return { parent, child };
	}

	it("opens the original from a child's 'Made from', and a child from the original's 'Made from this'", async () => {
		const { parent, child } = createFamily();
		startFakeGenerationsApi({ generations: [parent, child], models: [PAINTER] });
		const { user } = openHistory();
		await findCards();

		const childCard = screen
			.getAllByRole("article")
			.find((card) => card.dataset.generationId === child.id);
		if (!childCard) throw new Error("the child's card is not shown");
		await user.click(within(childCard).getByRole("button", { name: "Preview image 1 of 1" }));
		let dialog = await screen.findByRole("dialog", { name: "Image" });
		const madeFrom = await within(dialog).findByRole("region", {
			name: imageMadeFrom(),
		});
		const original = within(madeFrom).getByRole("button", {
			name: "Open the original: A harbour at dawn",
		});
		expect(within(original).getByRole("presentation", { hidden: true })).toHaveAttribute(
			"src",
			`/api/images/generations/${parent.id}/2-thumb.webp`,
		);

		await user.click(original);
		dialog = await screen.findByRole("dialog", { name: "Image 3 of 4" });
		const children = await within(dialog).findByRole("region", {
			name: imageMadeFromThis(),
		});
		await user.click(
			within(children).getByRole("button", { name: "Open Upscale: A harbour at dawn" }),
		);
		dialog = await screen.findByRole("dialog", { name: "Image" });
		expect(await within(dialog).findByRole("region", { name: imageMadeFrom() })).toBeVisible();
	});

	it("adds a variation started from the preview to the Made from this it shows", async () => {
		const parent = createTestGeneration({ prompt: "A harbour at dawn", created_at: hoursAgo(3) });
		const earlier = createTestGeneration({
			id: "00000000-0000-4000-8000-0000000e0009",
			prompt: "A harbour at dawn, varied before",
			created_at: hoursAgo(1),
			images: createTestImages("00000000-0000-4000-8000-0000000e0009", "--ar 1:1", 1),
			parent: { generationId: parent.id, imageIndex: 2, action: "vary-subtle", exists: true },
		});
		startFakeGenerationsApi({ generations: [parent, earlier], models: [PAINTER] });
		const { user } = openHistory();
		await findCards();

		await user.click(
			within(findCard("A harbour at dawn")).getByRole("button", { name: "Preview image 3 of 4" }),
		);
		const dialog = await screen.findByRole("dialog", { name: "Image 3 of 4" });
		const children = await within(dialog).findByRole("region", {
			name: imageMadeFromThis(),
		});
		expect(within(children).getAllByRole("listitem")).toHaveLength(1);

		const actions = within(dialog).getByRole("group", {
			name: "Make more from this image: image 3 of 4",
		});
		await user.click(within(actions).getByRole("button", { name: "Vary (strong)" }));
		expect(await findToast(imageVaryStarted())).toBeVisible();
		// Within the family's ten seconds of freshness: the start itself says it is out of date. The
		// new one is there at once, running (shown, not yet opened).
		await waitFor(() => expect(within(children).getAllByRole("listitem")).toHaveLength(2));
	});

	it("lists under each image what was made from that image, not from its siblings", async () => {
		const parent = createTestGeneration({ prompt: "A harbour at dawn", created_at: hoursAgo(3) });
		const childOf = (imageIndex: number, prompt: string, hours: number) => {
			const id = `00000000-0000-4000-8000-0000000e000${imageIndex}`;
			return createTestGeneration({
				id,
				prompt,
				created_at: hoursAgo(hours),
				images: createTestImages(id, "--ar 1:1", 1),
				parent: { generationId: parent.id, imageIndex, action: "vary-subtle", exists: true },
			});
		};
		const ofFirst = childOf(0, "A harbour at dawn, varied from the first", 2);
		const ofThird = childOf(2, "A harbour at dawn, varied from the third", 1);
		const server = startFakeGenerationsApi({
			generations: [parent, ofFirst, ofThird],
			models: [PAINTER],
		});
		const { user } = openHistory();
		await findCards();

		await user.click(
			within(findCard("A harbour at dawn")).getByRole("button", { name: "Preview image 3 of 4" }),
		);
		let dialog = await screen.findByRole("dialog", { name: "Image 3 of 4" });
		let children = await within(dialog).findByRole("region", {
			name: imageMadeFromThis(),
		});
		expect(
			within(children)
				.getAllByRole("button")
				.map((button) => button.title),
		).toEqual(["Open Vary (subtle): A harbour at dawn, varied from the third"]);

		// The second image has nothing made from it: no "Made from this" under it.
		await user.click(within(dialog).getByRole("button", { name: "Show image 2 of 4" }));
		dialog = await screen.findByRole("dialog", { name: "Image 2 of 4" });
		await waitFor(() =>
			expect(server.readRequests("GET", `/api/generations/${parent.id}/family`)).toHaveLength(2),
		);
		await waitFor(() =>
			expect(
				within(dialog).queryByRole("region", { name: imageMadeFromThis() }),
			).not.toBeInTheDocument(),
		);

		await user.click(within(dialog).getByRole("button", { name: "Show image 1 of 4" }));
		dialog = await screen.findByRole("dialog", { name: "Image 1 of 4" });
		children = await within(dialog).findByRole("region", { name: imageMadeFromThis() });
		expect(
			within(children)
				.getAllByRole("button")
				.map((button) => button.title),
		).toEqual(["Open Vary (subtle): A harbour at dawn, varied from the first"]);
		// One request per image shown, each naming its image.
		expect(
			server
				.readRequests("GET", `/api/generations/${parent.id}/family`)
				.map((request) => request.search.get("imageIndex")),
		).toEqual(["2", "1", "0"]);
	});

	it("says the original was deleted, and keeps the child's own images", async () => {
		const { child } = createFamily();
		const orphan = {
			...child,
			parent: {
				generationId: "00000000-0000-4000-8000-0000000d0001",
				imageIndex: 0,
				action: "vary-strong" as const,
				exists: false,
			},
		};
		const server = startFakeGenerationsApi({ generations: [orphan], models: [PAINTER] });
		const { user } = openHistory();
		await findCards();

		await user.click(screen.getByRole("button", { name: "Preview image 1 of 1" }));
		const dialog = await screen.findByRole("dialog", { name: "Image" });
		const madeFrom = within(dialog).getByRole("region", { name: imageMadeFrom() });
		expect(within(madeFrom).getByText(imageOriginalDeleted())).toBeVisible();
		expect(within(dialog).getByRole("img", { name: /A harbour at dawn/ })).toBeVisible();
		// Nothing made from it, no parent to show: the family is not asked for.
		expect(server.readRequests("GET", /\/family$/)).toHaveLength(0);
	});

	it("says the original is in the Trash when its owner deleted it there", async () => {
		const { child } = createFamily();
		const trashed = {
			...child,
			parent: {
				generationId: "00000000-0000-4000-8000-0000000d0002",
				imageIndex: 0,
				action: "vary-strong" as const,
				exists: false,
				inTrash: true,
			},
		};
		startFakeGenerationsApi({ generations: [trashed], models: [PAINTER] });
		const { user } = openHistory();
		await findCards();

		await user.click(screen.getByRole("button", { name: "Preview image 1 of 1" }));
		const dialog = await screen.findByRole("dialog", { name: "Image" });
		const madeFrom = within(dialog).getByRole("region", { name: imageMadeFrom() });
		expect(within(madeFrom).getByText(imageOriginalInTrash())).toBeVisible();
	});
});
