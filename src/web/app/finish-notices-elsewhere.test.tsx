// "Notify me when done" beyond the generator: a generation started in another tab, on another
// device or through the API, or left behind on the generator, that ends while the page is hidden
// raises a notification from the header's poll of the active generations, on any signed-in page;
// clicking it brings the tab forward and opens the result in the history.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Generation } from "../../shared/generations/generation-responses";
import { registerCatalogue, setActiveLanguage } from "../../shared/i18n/runtime";
import de from "../../shared/i18n/translations/de";
import { startFakeGenerationsApi } from "../testing/fakes/fake-generations-api";
import { installFakeNotifications, setPageVisibility } from "../testing/fakes/fake-notifications";
import {
	createRunningGeneration,
	createTestGeneration,
	createTestImages,
} from "../testing/fakes/test-generations";
import { getGenerateButton, getPromptBox } from "../testing/generator-screen";
import { cleanUpHistoryScreen, openHistory, setUpHistoryScreen } from "../testing/history-screen";

function getHeader() {
	return within(screen.getByRole("banner"));
}

function completed(generation: Generation): Generation {
	return createTestGeneration({
		...generation,
		status: "completed",
		images: createTestImages(generation.id, generation.aspect_ratio),
		completed_at: new Date().toISOString(),
		progress: null,
	});
}

/** "Notify me when done" as the switch leaves it: remembered on, the browser allowing it. */
function turnNotifyOn() {
	window.localStorage.setItem("atelier:notify-when-done", "on");
	return installFakeNotifications({ permission: "granted", answer: "granted" });
}

/** Waits until the header's poll has seen the person's running generations end. */
async function waitForNoneRunning() {
	await waitFor(() =>
		expect(getHeader().queryByRole("link", { name: /running/ })).not.toBeInTheDocument(),
	);
}

describe("a notification for a generation that ends away from the generator", () => {
	beforeEach(setUpHistoryScreen);
	afterEach(() => {
		cleanUpHistoryScreen();
		setPageVisibility("visible");
		window.localStorage.clear();
		window.sessionStorage.clear();
	});

	it("comes from any signed-in page for one started elsewhere; clicking it brings the tab and opens its preview in the history", async () => {
		const notifications = turnNotifyOn();
		const focus = vi.spyOn(window, "focus");
		const server = startFakeGenerationsApi({ generations: [] });
		const { readLocation } = openHistory({ path: "/" });
		await screen.findByRole("textbox", { name: "Prompt" });
		// Started through the API once the generator has looked for one of its own to pick up (and
		// found none): the generator does not follow it.
		await waitFor(() => expect(server.readListRequests()).toHaveLength(1));
		await new Promise((resolve) => setTimeout(resolve, 50));
		const running = createRunningGeneration({ prompt: "A kite made elsewhere" });
		server.addGeneration(running);
		await getHeader().findByRole("link", { name: "1 running" });
		setPageVisibility("hidden");
		server.updateGeneration(completed(running));

		await waitFor(() => expect(notifications.shown).toHaveLength(1));
		const [notice] = notifications.shown;
		expect(notice?.title).toBe("Your images are ready");
		expect(notice?.options.body).toBe("A kite made elsewhere");
		expect(notice?.options.tag).toBe(`generation-${running.id}`);
		expect(notifications.readPermissionRequests()).toBe(0);

		setPageVisibility("visible");
		notice?.onclick?.();
		expect(focus).toHaveBeenCalled();
		expect(notice?.isClosed).toBe(true);
		expect(await screen.findByRole("dialog", { name: "Image 1 of 4" })).toBeVisible();
		// Over the history (the page behind the dialog is hidden from the accessibility tree).
		expect(
			screen.getByRole("heading", { level: 1, name: "Saved Generations", hidden: true }),
		).toBeInTheDocument();
		expect(readLocation()).toBe("/generations");
	});

	it("says a generation failed, and its click shows the failed card in the history", async () => {
		const notifications = turnNotifyOn();
		const running = createRunningGeneration({ prompt: "A stormy harbour" });
		const server = startFakeGenerationsApi({
			generations: [createTestGeneration({ prompt: "An older sunrise" }), running],
		});
		openHistory();
		const card = await screen.findByRole("article", { name: "A stormy harbour" });
		await getHeader().findByRole("link", { name: "1 running" });

		setPageVisibility("hidden");
		server.updateGeneration({
			...running,
			status: "failed",
			error: "The model is overloaded",
			progress: null,
		});
		await waitFor(() => expect(notifications.shown).toHaveLength(1));
		const [notice] = notifications.shown;
		expect(notice?.title).toBe("Your generation failed");
		expect(notice?.options.body).toBe("A stormy harbour");

		setPageVisibility("visible");
		notice?.onclick?.();
		await waitFor(() =>
			expect(screen.getByRole("article", { name: "A stormy harbour" })).toHaveFocus(),
		);
		// The history learns of the failure through its own request, which may land after the focus.
		expect(await within(card).findByText("The model is overloaded")).toBeVisible();
		expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
	});

	it.each([
		["completed", "Deine Bilder sind fertig"],
		["failed", "Deine Generierung ist fehlgeschlagen"],
	] as const)(
		"says a generation %s in the page's language, German here",
		async (outcome, title) => {
			registerCatalogue("de", de);
			setActiveLanguage("de");
			try {
				const notifications = turnNotifyOn();
				const running = createRunningGeneration({ prompt: "Ein stürmischer Hafen" });
				const server = startFakeGenerationsApi({ generations: [running] });
				openHistory();
				await getHeader().findByRole("link", { name: "1 läuft" });

				setPageVisibility("hidden");
				server.updateGeneration(
					outcome === "completed"
						? completed(running)
						: { ...running, status: "failed", error: "Overloaded", progress: null },
				);
				await waitFor(() => expect(notifications.shown).toHaveLength(1));
				expect(notifications.shown[0]?.title).toBe(title);
				expect(notifications.shown[0]?.options.body).toBe("Ein stürmischer Hafen");
			} finally {
				setActiveLanguage("en");
			}
		},
	);

	it("comes for a generation left behind on the generator, once the generator no longer follows it", async () => {
		const notifications = turnNotifyOn();
		const server = startFakeGenerationsApi();
		const { user } = openHistory({ path: "/" });
		await screen.findByRole("radiogroup", { name: "Images" });
		await user.type(getPromptBox(), "A lantern left running");
		await user.click(getGenerateButton());
		await getHeader().findByRole("link", { name: "1 running" });

		await user.click(getHeader().getByRole("link", { name: /View Generations/ }));
		await screen.findByRole("article", { name: "A lantern left running" });
		setPageVisibility("hidden");
		const [started] = server.readGenerations();
		if (!started) throw new Error("no generation was started");
		server.updateGeneration(completed(started));

		await waitFor(() => expect(notifications.shown).toHaveLength(1));
		expect(notifications.shown[0]?.options.body).toBe("A lantern left running");
		expect(notifications.shown[0]?.options.tag).toBe(`generation-${started.id}`);
	});

	it("stays silent while the page is seen, with the switch off, and for a generation deleted elsewhere", async () => {
		const notifications = installFakeNotifications({ permission: "granted", answer: "granted" });
		const seen = createRunningGeneration({ prompt: "Ends in sight" });
		const unasked = createRunningGeneration({
			prompt: "Ends unasked",
			created_at: "2025-01-05T12:01:00.000Z",
		});
		const deleted = createRunningGeneration({
			prompt: "Deleted elsewhere",
			created_at: "2025-01-05T12:02:00.000Z",
		});
		const server = startFakeGenerationsApi({ generations: [seen, unasked, deleted] });
		openHistory();
		await getHeader().findByRole("link", { name: "3 running" });

		// Seen: the card shows it, no notification.
		window.localStorage.setItem("atelier:notify-when-done", "on");
		server.updateGeneration(completed(seen));
		await getHeader().findByRole("link", { name: "2 running" });

		// Hidden, but the switch is off: nothing.
		window.localStorage.clear();
		setPageVisibility("hidden");
		server.updateGeneration(completed(unasked));
		await getHeader().findByRole("link", { name: "1 running" });

		// Hidden with the switch on, but deleted elsewhere: no record, no notification.
		window.localStorage.setItem("atelier:notify-when-done", "on");
		server.removeGeneration(deleted.id);
		await waitForNoneRunning();
		await waitFor(() =>
			expect(server.readRequests("GET", `/api/generations/${deleted.id}`).length).toBeGreaterThan(
				0,
			),
		);

		expect(notifications.shown).toHaveLength(0);
		expect(notifications.readPermissionRequests()).toBe(0);
	});
});
