import { expect, type Page, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver } from "../../src/server/testing/webhook-receiver";
import { expectNoAxeViolations, signUp, uniqueEmail } from "./support/journeys";

async function openAccountPage(page: Page): Promise<void> {
	await page.getByRole("button", { name: "Account menu" }).click();
	await page.getByRole("menuitem", { name: "Account" }).click();
	await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
}

test("webhooks: add an endpoint at a local receiver, send a test event, see it delivered in the log", async ({
	page,
}) => {
	const receiver = await startWebhookReceiver();
	try {
		await signUp(page, uniqueEmail("webhooks"));
		await openAccountPage(page);
		const section = page.getByRole("region", { name: "Webhooks" });
		await expect(section.getByText("No endpoints yet.")).toBeVisible();

		await section.getByLabel("Endpoint URL").fill(receiver.url);
		await section.getByRole("button", { name: "Add endpoint" }).click();
		const secretField = section.getByLabel("Signing secret");
		await expect(secretField).toHaveValue(/^whsec_/);
		const secret = await secretField.inputValue();
		await expectNoAxeViolations(page);
		await section.getByRole("button", { name: "Done" }).click();
		await expect(secretField).toBeHidden();

		const endpoint = section.getByRole("listitem", { name: receiver.url });
		await expect(endpoint.getByText("No deliveries yet.")).toBeVisible();
		await endpoint.getByRole("button", { name: "Send test event" }).click();

		const log = endpoint.getByRole("table", { name: "Deliveries to this endpoint, newest first" });
		const row = log.getByRole("row").filter({ hasText: "webhook.test" });
		await expect(row.getByRole("cell")).toHaveText([
			"webhook.test",
			/\d{1,2}:\d{2}/,
			"1",
			"200",
			"Delivered",
		]);
		await expectNoAxeViolations(page);

		// What the receiver got is verifiable with the secret the page showed once.
		const [request] = receiver.received();
		expect(request).toBeDefined();
		const event = new Webhook(secret).verify(request?.body ?? "", request?.headers ?? {});
		expect(event).toMatchObject({ type: "webhook.test" });

		// Delete it, after the question.
		await endpoint.getByRole("button", { name: `Delete the endpoint ${receiver.url}` }).click();
		await page.getByRole("alertdialog").getByRole("button", { name: "Delete endpoint" }).click();
		await expect(section.getByText("No endpoints yet.")).toBeVisible();
	} finally {
		await receiver.close();
	}
});
