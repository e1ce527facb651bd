import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { startFakeWebhooksApi } from "../../testing/fakes/fake-webhooks-api";
import { renderWithProviders } from "../../testing/render-app";
import { WebhooksSection } from "./webhooks-section";

function readLogRows(endpoint: HTMLElement) {
	const table = within(endpoint).getByRole("table", {
		name: "Deliveries to this endpoint, newest first",
	});
	return within(table)
		.getAllByRole("row")
		.slice(1)
		.map((row) =>
			within(row)
				.getAllByRole("cell")
				.map((cell) => cell.textContent),
		);
}

describe("the Webhooks section", () => {
	beforeEach(() => {
		startFakeAuthServer({ signedInAs: createTestUser() });
	});

	it("adds an endpoint for the chosen events and shows its signing secret once", async () => {
		const api = startFakeWebhooksApi();
		const { user } = renderWithProviders(<WebhooksSection />);

		expect(await screen.findByText("No endpoints yet.")).toBeVisible();
		await user.type(screen.getByLabelText("Endpoint URL"), "https://hooks.example.com/atelier");
		await user.click(screen.getByRole("checkbox", { name: "generation.failed" }));
		await user.click(screen.getByRole("checkbox", { name: "generation.deleted" }));
		await user.click(screen.getByRole("button", { name: "Add endpoint" }));

		const secret = await screen.findByLabelText("Signing secret");
		expect(secret).toHaveDisplayValue(/^whsec_c2VjcmV0LW51bWJlci0\d+$/);
		expect(screen.getByText(/it will not be shown again/)).toBeVisible();
		expect(api.addRequests).toEqual([
			{ url: "https://hooks.example.com/atelier", events: ["generation.completed"] },
		]);
		const list = await screen.findByRole("list", { name: "Webhook endpoints" });
		const endpoint = within(list).getByRole("listitem", {
			name: "https://hooks.example.com/atelier",
		});
		expect(within(endpoint).getByText("generation.completed")).toBeVisible();
		expect(within(endpoint).queryByText("generation.failed")).toBeNull();
		expect(screen.getByLabelText("Endpoint URL")).toHaveValue("");

		await user.click(screen.getByRole("button", { name: "Done" }));
		expect(screen.queryByLabelText("Signing secret")).toBeNull();
	});

	it("sends a test event and shows it in the delivery log: event, time, attempts, last status", async () => {
		startFakeWebhooksApi({ testStatusCode: 204 });
		const { user } = renderWithProviders(<WebhooksSection />);
		await user.type(await screen.findByLabelText("Endpoint URL"), "https://hooks.example.com/a");
		await user.click(screen.getByRole("button", { name: "Add endpoint" }));
		const endpoint = await screen.findByRole("listitem", { name: "https://hooks.example.com/a" });
		expect(await within(endpoint).findByText("No deliveries yet.")).toBeVisible();

		await user.click(within(endpoint).getByRole("button", { name: "Send test event" }));

		expect(
			await within(endpoint).findByText("Test event queued. It appears in the log below."),
		).toBeVisible();
		await waitFor(() => expect(readLogRows(endpoint)).toHaveLength(1));
		const [row] = readLogRows(endpoint);
		expect(row?.[0]).toBe("webhook.test");
		expect(row?.[1]).toMatch(/\d{1,2}:\d{2}/);
		expect(row?.slice(2)).toEqual(["1", "204", "Delivered"]);
	});

	it("shows the server's reason when it refuses the URL, and asks for an event before sending", async () => {
		const message =
			"10.0.0.5 is a loopback, private, link-local or metadata address (10.0.0.5); webhooks go only to public addresses.";
		const api = startFakeWebhooksApi({ refuseUrl: { url: "https://10.0.0.5/hooks", message } });
		const { user } = renderWithProviders(<WebhooksSection />);

		await user.type(await screen.findByLabelText("Endpoint URL"), "https://10.0.0.5/hooks");
		await user.click(screen.getByRole("button", { name: "Add endpoint" }));
		expect(await screen.findByText(message)).toBeVisible();
		expect(screen.getByText("No endpoints yet.")).toBeVisible();

		await user.click(screen.getByRole("checkbox", { name: "generation.completed" }));
		await user.click(screen.getByRole("checkbox", { name: "generation.failed" }));
		await user.click(screen.getByRole("checkbox", { name: "generation.deleted" }));
		await user.click(screen.getByRole("button", { name: "Add endpoint" }));
		expect(await screen.findByText("Choose at least one event.")).toBeVisible();
		expect(api.addRequests).toHaveLength(1);
	});

	it("deletes an endpoint after asking", async () => {
		startFakeWebhooksApi();
		const { user } = renderWithProviders(<WebhooksSection />);
		await user.type(await screen.findByLabelText("Endpoint URL"), "https://hooks.example.com/b");
		await user.click(screen.getByRole("button", { name: "Add endpoint" }));
		await screen.findByRole("listitem", { name: "https://hooks.example.com/b" });

		await user.click(
			screen.getByRole("button", { name: "Delete the endpoint https://hooks.example.com/b" }),
		);
		const dialog = await screen.findByRole("alertdialog", { name: "Delete this endpoint?" });
		await user.click(within(dialog).getByRole("button", { name: "Delete endpoint" }));

		expect(await screen.findByText("No endpoints yet.")).toBeVisible();
	});
});
