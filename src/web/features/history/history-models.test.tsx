// The model and settings of each generation in the history: shown on its card and in the preview,
// reused (Use prompt, Use settings, Rerun) even when the model is no longer offered, and the
// history filtered by model in the address.

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MODEL_NO_LONGER_OFFERED } from "../../../shared/generations/generation-settings";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createTestGeneration, createTestModel } from "../../testing/fakes/test-generations";
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

const LOCAL = createTestModel();
const SKETCH = createTestModel({
	id: "sketch",
	label: "Quick sketch",
	counts: [1, 2],
	negativePrompt: false,
});
const STUDIO = createTestModel({
	id: "studio",
	label: "Studio painter",
	qualities: ["low", "medium", "high"],
});

/** A generation of the studio model with every setting used. */
function createStudioGeneration() {
	return createTestGeneration({
		prompt: "A quiet harbour",
		aspect_ratio: "--ar 16:9",
		model: { id: "studio", label: "Studio painter" },
		settings: { count: 2, seed: 4242, negativePrompt: "boats, people", quality: "high" },
	});
}

const STUDIO_PROMPT_LINK =
	"/?prompt=A+quiet+harbour&ratio=16%3A9&model=studio&count=2&negative=boats%2C+people&quality=high";

async function openMenu(user: ReturnType<typeof openHistory>["user"], prompt: string) {
	await user.click(within(findCard(prompt)).getByRole("button", { name: "More actions" }));
	return screen.findByRole("menu");
}

async function openPreview(user: ReturnType<typeof openHistory>["user"], prompt: string) {
	await user.click(within(findCard(prompt)).getByRole("button", { name: "Preview image 1 of 4" }));
	return screen.findByRole("dialog");
}

/** The preview's details, term by term. */
function readDetails(dialog: HTMLElement): Record<string, string> {
	const details: Record<string, string> = {};
	for (const term of within(dialog).getAllByRole("term")) {
		details[term.textContent ?? ""] = term.nextElementSibling?.textContent ?? "";
	}
	return details;
}

describe("the model of each generation", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("shows the model's label on each card, and the model and its settings in the preview", async () => {
		startFakeGenerationsApi({
			models: [LOCAL, STUDIO],
			generations: [
				createTestGeneration({
					prompt: "A fox in snow",
					created_at: hoursAgo(0.1),
					settings: { count: 4, seed: 42, negativePrompt: "text, watermark", quality: null },
				}),
				createTestGeneration({
					prompt: "A studio portrait",
					created_at: hoursAgo(0.2),
					model: { id: "studio", label: "Studio painter" },
					settings: { count: 4, seed: null, negativePrompt: null, quality: "high" },
				}),
			],
		});
		const { user } = openHistory();
		await findCards();

		expect(within(findCard("A fox in snow")).getByText("Offline engine")).toBeVisible();
		expect(within(findCard("A studio portrait")).getByText("Studio painter")).toBeVisible();

		const fox = await openPreview(user, "A fox in snow");
		expect(readDetails(fox)).toMatchObject({
			Model: "Offline engine",
			Seed: "42",
			"Negative prompt": "text, watermark",
		});
		expect(readDetails(fox)).not.toHaveProperty("Quality");

		await user.keyboard("{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}");
		const portrait = screen.getByRole("dialog");
		await waitFor(() => expect(readDetails(portrait).Model).toBe("Studio painter"));
		expect(readDetails(portrait).Quality).toBe("High");
		// A model without seeds has none to show, and no negative prompt was used.
		expect(readDetails(portrait)).not.toHaveProperty("Seed");
		expect(readDetails(portrait)).not.toHaveProperty("Negative prompt");
	});
});

describe("reuse with the model and settings", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("fills the model, image count, negative prompt and quality with Use prompt, and the seed too with Use settings", async () => {
		startFakeGenerationsApi({ models: [LOCAL, STUDIO], generations: [createStudioGeneration()] });
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "A quiet harbour");
		expect(within(menu).getByRole("menuitem", { name: "Use prompt" })).toHaveAttribute(
			"href",
			STUDIO_PROMPT_LINK,
		);
		expect(within(menu).getByRole("menuitem", { name: "Use settings" })).toHaveAttribute(
			"href",
			`${STUDIO_PROMPT_LINK}&seed=4242`,
		);
		await user.keyboard("{Escape}");
		await waitFor(() => expect(screen.queryByRole("menu")).not.toBeInTheDocument());

		const dialog = await openPreview(user, "A quiet harbour");
		expect(within(dialog).getByRole("link", { name: "Use prompt" })).toHaveAttribute(
			"href",
			STUDIO_PROMPT_LINK,
		);
		expect(within(dialog).getByRole("link", { name: "Use settings" })).toHaveAttribute(
			"href",
			`${STUDIO_PROMPT_LINK}&seed=4242`,
		);

		await user.click(within(dialog).getByRole("link", { name: "Use settings" }));
		expect(await screen.findByRole("textbox", { name: "Prompt" })).toHaveValue("A quiet harbour");
		// The model is offered: nothing to say about it.
		expect(screen.queryByText(MODEL_NO_LONGER_OFFERED)).not.toBeInTheDocument();
	});

	it("reruns with the same model and settings and no seed, so the server draws a new one", async () => {
		const server = startFakeGenerationsApi({
			models: [LOCAL, STUDIO],
			generations: [createStudioGeneration()],
		});
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "A quiet harbour");
		await user.click(within(menu).getByRole("menuitem", { name: "Rerun" }));

		expect(await findToast("Rerun started")).toBeVisible();
		const [body] = server.readCreateRequests();
		expect(body).toEqual({
			prompt: "A quiet harbour",
			aspectRatio: "--ar 16:9",
			model: "studio",
			count: 2,
			negativePrompt: "boats, people",
			quality: "high",
		});
		expect(body).not.toHaveProperty("seed");
		await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(2));
		const [newest] = screen.getAllByRole("article");
		if (!newest) throw new Error("no card");
		expect(within(newest).getByText("Studio painter")).toBeVisible();
		const rerun = server.readGenerations().find((item) => item.id === server.generationId);
		expect(rerun?.settings.seed).not.toBe(4242);
	});
});

describe("a generation whose model is no longer offered", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	function createRetiredGeneration() {
		return createTestGeneration({
			prompt: "An old favourite",
			model: { id: "retired", label: "Old engine" },
			settings: { count: 3, seed: 77, negativePrompt: null, quality: null },
		});
	}

	it("still shows its label, and Rerun does not start: it says so and offers the generator with the rest filled", async () => {
		const server = startFakeGenerationsApi({
			models: [LOCAL, SKETCH],
			generations: [createRetiredGeneration()],
		});
		const { user } = openHistory();
		await findCards();
		expect(within(findCard("An old favourite")).getByText("Old engine")).toBeVisible();

		const menu = await openMenu(user, "An old favourite");
		await user.click(within(menu).getByRole("menuitem", { name: "Rerun" }));

		const gone = await screen.findByRole("alertdialog", { name: MODEL_NO_LONGER_OFFERED });
		expect(gone).toHaveAccessibleDescription(
			"“Old engine” cannot run this generation again. Open the generator with its prompt and settings filled in to choose another model.",
		);
		expect(within(gone).getByRole("link", { name: "Open the generator" })).toHaveAttribute(
			"href",
			"/?prompt=An+old+favourite&ratio=1%3A1&model=retired&count=3",
		);
		await user.click(within(gone).getByRole("button", { name: "Cancel" }));
		await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
		expect(
			within(findCard("An old favourite")).getByRole("button", { name: "More actions" }),
		).toHaveFocus();

		const dialog = await openPreview(user, "An old favourite");
		expect(readDetails(dialog).Model).toBe(`Old engine · ${MODEL_NO_LONGER_OFFERED}`);
		await user.click(within(dialog).getByRole("button", { name: "Rerun" }));
		const again = await screen.findByRole("alertdialog", { name: MODEL_NO_LONGER_OFFERED });
		await user.click(within(again).getByRole("link", { name: "Open the generator" }));

		expect(await screen.findByRole("textbox", { name: "Prompt" })).toHaveValue("An old favourite");
		expect(server.readCreateRequests()).toEqual([]);
	});

	it("names it in the Use prompt and Use settings links, which open the generator with the rest filled and say the model is gone", async () => {
		startFakeGenerationsApi({ models: [LOCAL, SKETCH], generations: [createRetiredGeneration()] });
		const { user } = openHistory();
		await findCards();

		const menu = await openMenu(user, "An old favourite");
		// The generator is told the model, to say it is gone beside its own choice of model.
		expect(within(menu).getByRole("menuitem", { name: "Use prompt" })).toHaveAttribute(
			"href",
			"/?prompt=An+old+favourite&ratio=1%3A1&model=retired&count=3",
		);
		const useSettings = within(menu).getByRole("menuitem", { name: "Use settings" });
		expect(useSettings).toHaveAttribute(
			"href",
			"/?prompt=An+old+favourite&ratio=1%3A1&model=retired&count=3&seed=77",
		);
		await user.click(useSettings);

		expect(await findToast(MODEL_NO_LONGER_OFFERED)).toBeVisible();
		expect(await screen.findByRole("textbox", { name: "Prompt" })).toHaveValue("An old favourite");
	});
});

describe("the model filter", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	function createHistory() {
		const sketch = { id: "sketch", label: "Quick sketch" };
		return [
			createTestGeneration({ prompt: "Fox, sketched", model: sketch, created_at: hoursAgo(0.1) }),
			createTestGeneration({ prompt: "Fox, drawn", created_at: hoursAgo(0.2) }),
			createTestGeneration({
				prompt: "Valley, sketched",
				aspect_ratio: "--ar 16:9",
				model: sketch,
				created_at: hoursAgo(0.3),
			}),
			createTestGeneration({
				prompt: "Valley, drawn",
				aspect_ratio: "--ar 16:9",
				created_at: hoursAgo(0.4),
			}),
		];
	}

	it("filters by model, combined with the others, in the address, and is cleared with them", async () => {
		const server = startFakeGenerationsApi({
			models: [LOCAL, SKETCH],
			generations: createHistory(),
		});
		const { user, readLocation } = openHistory();
		await findCards();
		const filter = await screen.findByRole("combobox", { name: "Model" });
		expect(
			within(filter)
				.getAllByRole("option")
				.map((option) => option.textContent),
		).toEqual(["All models", "Offline engine", "Quick sketch"]);
		expect(filter).toHaveValue("");

		await user.selectOptions(filter, "Quick sketch");
		expect(await screen.findByText("2 generations match · 2 today")).toBeVisible();
		expect(readPrompts(screen.getAllByRole("article"))).toEqual([
			"Fox, sketched",
			"Valley, sketched",
		]);
		expect(readLocation()).toBe("/generations?model=sketch");

		await user.selectOptions(
			screen.getByRole("combobox", { name: "Aspect ratio" }),
			"16:9 · Landscape (widescreen)",
		);
		expect(await screen.findByText("1 generation matches · 1 today")).toBeVisible();
		expect(readPrompts(screen.getAllByRole("article"))).toEqual(["Valley, sketched"]);
		expect(readLocation()).toBe("/generations?model=sketch&ratio=16%3A9");
		const last = server.readListRequests().at(-1);
		expect(last?.get("model")).toBe("sketch");
		expect(last?.get("ratio")).toBe("--ar 16:9");

		await user.type(screen.getByRole("searchbox", { name: "Search prompts" }), "fox{Enter}");
		expect(await screen.findByRole("heading", { name: "No generations match" })).toBeVisible();
		await user.click(screen.getByRole("button", { name: "Clear search and filters" }));
		expect(await screen.findByText("4 generations · 4 today")).toBeVisible();
		expect(screen.getByRole("combobox", { name: "Model" })).toHaveValue("");
		expect(readLocation()).toBe("/generations");
	});

	it("shows the model filter the address holds (a reload, a shared link)", async () => {
		const server = startFakeGenerationsApi({
			models: [LOCAL, SKETCH],
			generations: createHistory(),
		});
		openHistory({ path: "/generations?model=sketch" });

		expect(await screen.findByText("2 generations match · 2 today")).toBeVisible();
		expect(await screen.findByRole("combobox", { name: "Model" })).toHaveValue("sketch");
		expect(server.readListRequests()[0]?.get("model")).toBe("sketch");
	});

	it("is not shown when only one model is offered", async () => {
		const server = startFakeGenerationsApi({ models: [LOCAL], generations: createHistory() });
		openHistory();
		await findCards();
		await waitFor(() => expect(server.readRequests("GET", "/api/models")).toHaveLength(1));

		expect(screen.getByRole("combobox", { name: "Aspect ratio" })).toBeVisible();
		expect(screen.queryByRole("combobox", { name: "Model" })).not.toBeInTheDocument();
	});
});
