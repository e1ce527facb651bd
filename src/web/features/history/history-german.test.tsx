// The history, its preview, the Trash and boards in German (docs/languages.md): every text from the
// catalogue, day headings and counts in the page's language, the Undo toast too.
import { screen, waitFor, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registerCatalogue, setActiveLanguage } from "../../../shared/i18n/runtime";
import de from "../../../shared/i18n/translations/de";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";
import { createTestTrashItem, startFakeTrashApi } from "../../testing/fakes/fake-trash-api";
import {
	createTestGeneration,
	createTestImages,
	createTestModel,
} from "../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	daysAgoAtNoon,
	findCard,
	findCards,
	openHistory,
	setUpHistoryScreen,
} from "../../testing/history-screen";
import { findToast } from "../../testing/toasts";

const GERMAN_DAY = new Intl.DateTimeFormat("de-DE", {
	month: "short",
	day: "numeric",
	year: "numeric",
});

describe("the history in German", () => {
	beforeAll(() => {
		registerCatalogue("de", de);
		setActiveLanguage("de");
	});
	afterAll(() => setActiveLanguage("en"));
	beforeEach(setUpHistoryScreen);
	afterEach(cleanUpHistoryScreen);

	it("writes the title, the count, the day, the filters and a card's menu in German", async () => {
		const yesterday = daysAgoAtNoon(1);
		startFakeGenerationsApi({
			generations: [
				createTestGeneration({ prompt: "Ein Leuchtturm", created_at: yesterday }),
				createTestGeneration({ prompt: "Ein Hafen", created_at: yesterday }),
			],
		});
		const { user } = openHistory();
		await findCards();

		expect(screen.getByRole("heading", { level: 1, name: "Gespeicherte Generierungen" }));
		expect(await screen.findByText("2 Generierungen · 0 heute")).toBeInTheDocument();
		expect(
			screen.getByRole("heading", { level: 2, name: GERMAN_DAY.format(new Date(yesterday)) }),
		).toBeInTheDocument();
		expect(screen.getByRole("searchbox", { name: "Prompts durchsuchen" })).toBeInTheDocument();
		expect(screen.getByRole("button", { name: "Nur Favoriten" })).toBeInTheDocument();

		await user.click(
			within(findCard("Ein Leuchtturm")).getByRole("button", { name: "Weitere Aktionen" }),
		);
		expect(await screen.findByRole("menuitem", { name: "Prompt verwenden" })).toBeInTheDocument();
		expect(screen.getByRole("menuitem", { name: "Erneut ausführen" })).toBeInTheDocument();
		expect(screen.queryByText(/Use prompt|Rerun/)).toBeNull();
	});

	it("says a move to the Trash in German, with Rückgängig", async () => {
		const generations = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "Weg damit" })],
		});
		startFakeTrashApi(generations);
		const { user } = openHistory();
		await findCards();

		await user.click(within(findCard("Weg damit")).getByRole("button", { name: "Löschen" }));
		const toast = await findToast("Generierung gelöscht");
		const item = toast.closest("[data-sonner-toast]") as HTMLElement;
		expect(within(item).getByRole("button", { name: "Rückgängig" })).toBeInTheDocument();
	});

	it("shows the Trash in German, counting with the catalogue's plural forms", async () => {
		const generations = startFakeGenerationsApi({ generations: [] });
		startFakeTrashApi(
			generations,
			["Eins", "Zwei"].map((prompt) => createTestTrashItem(createTestGeneration({ prompt }))),
		);
		const { user } = openHistory({ path: "/trash" });

		expect(await screen.findByRole("heading", { name: "Papierkorb" })).toBeInTheDocument();
		expect(await screen.findByText("Eins")).toBeInTheDocument();
		expect(screen.getByText("Eins").closest("li")).toHaveTextContent(
			/Gelöscht .+ · Endgültig entfernt .+/,
		);
		await user.click(screen.getByRole("checkbox", { name: "Eins" }));
		await user.click(screen.getByRole("checkbox", { name: "Zwei" }));
		await user.click(screen.getByRole("button", { name: "2 endgültig löschen" }));
		const dialog = await screen.findByRole("alertdialog", { name: "Endgültig löschen?" });
		expect(
			within(dialog).getByText(
				"Das kann nicht rückgängig gemacht werden. Diese 2 Generierungen werden endgültig gelöscht.",
			),
		).toBeInTheDocument();
		await user.click(within(dialog).getByRole("button", { name: "Endgültig löschen" }));
		await findToast("2 endgültig gelöscht");
		await waitFor(() => expect(screen.getByText("Der Papierkorb ist leer.")).toBeInTheDocument());
	});
	it("names an image's family, its actions and its ratio in the preview in German", async () => {
		const painter = createTestModel({ imageInput: true, upscale: [2, 4] });
		const childId = "00000000-0000-4000-8000-0000000c0101";
		startFakeGenerationsApi({
			generations: [
				createTestGeneration({
					id: childId,
					prompt: "Ein Hafen im Morgengrauen",
					model: { id: painter.id, label: painter.label },
					images: createTestImages(childId, "--ar 1:1", 1),
					parent: {
						generationId: "00000000-0000-4000-8000-0000000d0102",
						imageIndex: 0,
						action: "vary-strong",
						exists: false,
						inTrash: true,
					},
				}),
			],
			models: [painter],
		});
		const { user } = openHistory();
		await findCards();

		await user.click(screen.getByRole("button", { name: "Vorschau: Bild 1 von 1" }));
		const dialog = await screen.findByRole("dialog", { name: "Bild" });
		const madeFrom = within(dialog).getByRole("region", { name: "Entstanden aus" });
		expect(within(madeFrom).getByText("Das Original ist im Papierkorb")).toBeVisible();
		expect(
			within(dialog).getByRole("group", { name: "Mehr aus diesem Bild machen: Bild 1 von 1" }),
		).toBeVisible();
		// The ratio's name in the details, from the catalogue too.
		expect(within(dialog).getByText(/1:1 · Quadrat/)).toBeVisible();
		expect(within(dialog).queryByText(/Made from|Make more|image 1 of 1|Square/)).toBeNull();
	});
});
