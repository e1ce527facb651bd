// "Notify me when done" and its sound: permission only when turned on, remembered, and a
// notification when a generation ends unseen that brings the tab forward.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	installFakeNotifications,
	setPageVisibility,
} from "../../testing/fakes/fake-notifications";
import { createGate } from "../../testing/fakes/test-generations";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";

afterEach(() => {
	cleanUpGeneratorScreen();
	setPageVisibility("visible");
	window.localStorage.clear();
	document.title = "Atelier";
});

/** Starts a generation whose first poll waits for the returned gate, then completes. */
async function startHeldGeneration(prompt: string) {
	const pollGate = createGate();
	startGeneratorApi({
		polls: [{ status: "completed" }],
		pollGates: new Map([[0, pollGate.opened]]),
	});
	const view = await openGenerator();
	await view.user.type(getPromptBox(), prompt);
	await view.user.click(getGenerateButton());
	const notifySwitch = await screen.findByRole("switch", { name: "Notify me when done" });
	return { ...view, notifySwitch, finish: pollGate.release };
}

describe("Notify me when done", () => {
	it("asks for permission only when turned on, then notifies of a generation that ends unseen; clicking brings the tab", async () => {
		const notifications = installFakeNotifications({ answer: "granted" });
		const focus = vi.spyOn(window, "focus");
		const { user, notifySwitch, finish } = await startHeldGeneration("A foggy pier");

		expect(notifySwitch).toHaveAttribute("aria-checked", "false");
		expect(notifications.readPermissionRequests()).toBe(0);
		await user.click(notifySwitch);
		await waitFor(() => expect(notifySwitch).toHaveAttribute("aria-checked", "true"));
		expect(notifications.readPermissionRequests()).toBe(1);
		expect(window.localStorage.getItem("atelier:notify-when-done")).toBe("on");

		setPageVisibility("hidden");
		finish();
		await waitFor(() => expect(notifications.shown).toHaveLength(1));
		const [notice] = notifications.shown;
		expect(notice?.title).toBe("Your images are ready");
		expect(notice?.options.body).toBe("A foggy pier");

		notice?.onclick?.();
		expect(focus).toHaveBeenCalled();
		expect(notice?.isClosed).toBe(true);
		setPageVisibility("visible");
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
	});

	it("is raised once for the generation the generator follows: the header's poll, which also sees it end, leaves it to the generator", async () => {
		const notifications = installFakeNotifications({ permission: "granted", answer: "granted" });
		window.localStorage.setItem("atelier:notify-when-done", "on");
		const { finish } = await startHeldGeneration("A harbour followed here");
		const header = within(screen.getByRole("banner"));
		await header.findByRole("link", { name: "1 running" });

		setPageVisibility("hidden");
		finish();
		await waitFor(() => expect(notifications.shown).toHaveLength(1));
		await waitFor(() =>
			expect(header.queryByRole("link", { name: /running/ })).not.toBeInTheDocument(),
		);
		// Long enough for anything the header's poll would do after its answer.
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(notifications.shown).toHaveLength(1);
		expect(notifications.shown[0]?.options.body).toBe("A harbour followed here");
		setPageVisibility("visible");
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
	});

	it("stays off and says why when the browser refuses", async () => {
		const notifications = installFakeNotifications({ answer: "denied" });
		const { user, notifySwitch, finish } = await startHeldGeneration("A winter orchard");

		await user.click(notifySwitch);
		expect(await screen.findByText(/Your browser blocks notifications from Atelier/)).toBeVisible();
		expect(notifySwitch).toHaveAttribute("aria-checked", "false");
		expect(window.localStorage.getItem("atelier:notify-when-done")).toBeNull();

		setPageVisibility("hidden");
		finish();
		await waitFor(() => expect(document.title).toBe("Done · Atelier"));
		expect(notifications.shown).toHaveLength(0);
	});

	it("is remembered, and raises nothing for a generation that ends in a visible tab", async () => {
		const notifications = installFakeNotifications({ permission: "granted", answer: "granted" });
		window.localStorage.setItem("atelier:notify-when-done", "on");
		const { notifySwitch, finish } = await startHeldGeneration("A red kite");

		expect(notifySwitch).toHaveAttribute("aria-checked", "true");
		finish();
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
		expect(notifications.shown).toHaveLength(0);
		expect(notifications.readPermissionRequests()).toBe(0);
	});

	it("offers a sound, off by default and remembered", async () => {
		installFakeNotifications({ answer: "granted" });
		const { user, finish } = await startHeldGeneration("A bell tower");
		const sound = screen.getByRole("switch", { name: "Play a sound" });

		expect(sound).toHaveAttribute("aria-checked", "false");
		await user.click(sound);
		expect(sound).toHaveAttribute("aria-checked", "true");
		expect(window.localStorage.getItem("atelier:notify-sound")).toBe("on");
		finish();
		expect(await screen.findByRole("heading", { name: "4 images" })).toBeVisible();
	});

	it("is among the generator's settings before any generation runs: turned on first, the generation that follows notifies", async () => {
		const notifications = installFakeNotifications({ answer: "granted" });
		const pollGate = createGate();
		startGeneratorApi({
			polls: [{ status: "completed" }],
			pollGates: new Map([[0, pollGate.opened]]),
		});
		const { user } = await openGenerator();
		const form = screen.getByRole("form", { name: "Generate images" });
		const notifySwitch = await within(form).findByRole("switch", { name: "Notify me when done" });
		expect(within(form).getByRole("switch", { name: "Play a sound" })).toBeVisible();

		await user.click(notifySwitch);
		await waitFor(() => expect(notifySwitch).toHaveAttribute("aria-checked", "true"));
		expect(notifications.readPermissionRequests()).toBe(1);

		await user.type(getPromptBox(), "A quiet harbour");
		await user.click(getGenerateButton());
		// The same switch while it runs: one place, not a second copy in the progress panel.
		expect(await screen.findByRole("progressbar", { name: "Generation progress" })).toBeVisible();
		expect(screen.getAllByRole("switch", { name: "Notify me when done" })).toEqual([notifySwitch]);
		setPageVisibility("hidden");
		pollGate.release();
		await waitFor(() => expect(notifications.shown).toHaveLength(1));
		expect(notifications.shown[0]?.options.body).toBe("A quiet harbour");
	});
});
