import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { startFakePushApi } from "../../testing/fakes/fake-push-api";
import { renderWithProviders } from "../../testing/render-app";
import { PushSection } from "./push-section";

const PHONE = {
	id: "00000000-0000-4000-8000-000000000001",
	label: "Chrome on Android",
	endpoint: "https://push.example.com/phone",
	createdAt: "2026-11-20T10:00:00.000Z",
	lastNotifiedAt: null,
};

describe("Notifications on this device", () => {
	beforeEach(() => {
		startFakeAuthServer({ signedInAs: createTestUser() });
	});

	it("lists the person's notified devices, and Remove takes one off", async () => {
		const api = startFakePushApi({ devices: [PHONE] });
		const { user } = renderWithProviders(<PushSection />);

		const list = await screen.findByRole("list", { name: "Notified devices" });
		const phone = within(list).getByRole("listitem");
		expect(phone).toHaveTextContent("Chrome on Android");
		expect(phone).toHaveTextContent("Last notified never");
		await user.click(within(phone).getByRole("button", { name: "Remove Chrome on Android" }));

		expect(await screen.findByText("No device is notified yet.")).toBeVisible();
		expect(api.removed).toEqual([PHONE.id]);
		expect(screen.getByRole("status")).toHaveTextContent(
			"Chrome on Android is no longer notified.",
		);
	});

	it("says so, offering nothing to turn on, where this browser cannot be notified", async () => {
		startFakePushApi();
		renderWithProviders(<PushSection />);
		expect(await screen.findByText("No device is notified yet.")).toBeVisible();
		// jsdom has no service worker nor PushManager: no button, and no permission asked.
		expect(
			screen.getByText(
				/cannot receive notifications with the page closed|Notifications need Atelier on https/,
			),
		).toBeVisible();
		expect(screen.queryByRole("button", { name: "Turn on" })).toBeNull();
	});

	it("says the server turned them off (WEB_PUSH=off)", async () => {
		startFakePushApi({ isTurnedOff: true });
		renderWithProviders(<PushSection />);
		expect(
			await screen.findByText("Notifications with the page closed are turned off on this server."),
		).toBeVisible();
		expect(screen.queryByRole("list", { name: "Notified devices" })).toBeNull();
	});
});
