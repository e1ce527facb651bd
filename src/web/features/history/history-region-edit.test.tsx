// An Edit region's result in the history: Made from its source, a before/after in its preview,
// and Use settings that reopens the editor on the source with its mask.

import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Generation } from "../../../shared/generations/generation-responses";
import {
	editorTitleExpand,
	editorTitleRegion,
	imageBefore,
	imageMadeFrom,
	imageMadeFromUpload,
	imageUploadGone,
} from "../../../shared/i18n/messages";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import {
	createTestGeneration,
	createTestImages,
	createTestModel,
} from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	findCards,
	hoursAgo,
	openHistory,
	setUpHistoryScreen,
} from "../../testing/history-screen";

beforeEach(setUpHistoryScreen);
afterEach(cleanUpHistoryScreen);

const INPAINTER = createTestModel({ id: "inpainter", imageInput: true, mask: true });

function createRegionEdit(parent?: Generation["parent"]) {
	const source = createTestGeneration({
		prompt: "A harbour at dawn",
		created_at: hoursAgo(2),
		model: { id: INPAINTER.id, label: INPAINTER.label },
	});
	const editId = "00000000-0000-4000-8000-0000000e0001";
	const edit = createTestGeneration({
		id: editId,
		prompt: "A red boat in the harbour",
		created_at: hoursAgo(1),
		images: createTestImages(editId, "--ar 1:1", 1),
		model: { id: INPAINTER.id, label: INPAINTER.label },
		parent: parent ?? {
			generationId: source.id,
			imageIndex: 1,
			action: "edit-region",
			exists: true,
		},
		region: {
			sourceUrl: `/api/generations/${editId}/source`,
			maskUrl: `/api/generations/${editId}/mask`,
			frame: null,
		},
	});
	return { source, edit };
}

async function openEditPreview(parent?: Generation["parent"]) {
	const { source, edit } = createRegionEdit(parent);
	startFakeGenerationsApi({ generations: [source, edit], models: [INPAINTER] });
	const view = openHistory();
	await findCards();
	const card = screen.getAllByRole("article").find((item) => item.dataset.generationId === edit.id);
	if (!card) throw new Error("the edit's card is not shown");
	await view.user.click(within(card).getByRole("button", { name: "Preview image 1 of 1" }));
	const dialog = await screen.findByRole("dialog", { name: "Image" });
	return { ...view, dialog, source, edit };
}

describe("an Edit region in the history", () => {
	it("shows the image it was made from, and its own again, with Before", async () => {
		const { user, dialog, edit } = await openEditPreview();
		expect(await within(dialog).findByRole("region", { name: imageMadeFrom() })).toBeVisible();
		const before = within(dialog).getByRole("button", { name: imageBefore() });
		expect(before).toHaveAttribute("aria-pressed", "false");
		await user.click(before);
		expect(before).toHaveAttribute("aria-pressed", "true");
		expect(within(dialog).getByRole("img", { name: /^Before: / })).toHaveAttribute(
			"src",
			edit.region?.sourceUrl,
		);
		await user.click(before);
		expect(within(dialog).queryByRole("img", { name: /^Before: / })).not.toBeInTheDocument();
		expect(within(dialog).getByRole("img", { name: /A red boat/ })).toBeVisible();
	});

	it("reopens the editor on its source with its recipe from Use settings", async () => {
		const { dialog, source, edit } = await openEditPreview();
		expect(within(dialog).getByRole("link", { name: /Use settings/ })).toHaveAttribute(
			"href",
			`/edit?generation=${source.id}&image=1&tool=region&reopen=${edit.id}`,
		);
	});

	it("offers Edit region on the images of a generation where a model can edit a region", async () => {
		const { dialog, edit } = await openEditPreview();
		expect(within(dialog).getByRole("link", { name: editorTitleRegion() })).toHaveAttribute(
			"href",
			`/edit?generation=${edit.id}&image=0&tool=region`,
		);
		expect(within(dialog).queryByRole("link", { name: editorTitleExpand() })).toBeNull();
	});

	it("reopens the editor on the uploaded image it was made from, with its mask, from Use settings", async () => {
		const uploadId = "00000000-0000-7000-8000-00000000a001";
		const { dialog, edit } = await openEditPreview({
			action: "edit-region",
			upload: true,
			uploadId,
		});
		expect(within(dialog).getByText(imageMadeFromUpload())).toBeVisible();
		expect(within(dialog).getByRole("link", { name: /Use settings/ })).toHaveAttribute(
			"href",
			`/edit?upload=${uploadId}&tool=region&reopen=${edit.id}`,
		);
	});

	it("says its upload is no longer kept, and Use settings fills the generator, once the upload is gone", async () => {
		const { dialog } = await openEditPreview({ action: "edit-region", upload: true });
		expect(within(dialog).getByText(imageUploadGone())).toBeVisible();
		const link = within(dialog).getByRole("link", { name: /Use settings/ });
		expect(link.getAttribute("href")).not.toMatch(/^\/edit/);
		expect(link.getAttribute("href")).toMatch(/prompt=A\+red\+boat/);
	});
});
