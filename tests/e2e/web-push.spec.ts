import { expect, type Page, test } from "@playwright/test";
import {
	CreateGenerationResponseSchema,
	GenerationSchema,
} from "../../src/shared/generations/generations";
import { E2E_BASE_URL } from "./support/constants";
import { expectNoAxeViolations, signUp, uniqueEmail } from "./support/journeys";

// Web Push in a real Chromium. Offline, Chromium reaches no push service, so the journey grants
// the notifications permission, registers the service worker as turning notifications on does,
// and delivers the push the server would send straight into the worker through the DevTools
// protocol; it reads the notification back and clicks it (a notificationclick dispatched in the
// worker), which brings the open tab to the result.

const PROMPT = "A lighthouse at dusk, pushed";

async function finishGeneration(page: Page) {
	const response = await page.request.post("/api/generations", {
		headers: { origin: E2E_BASE_URL },
		data: { prompt: PROMPT, aspectRatio: "--ar 1:1", count: 1 },
	});
	const created = CreateGenerationResponseSchema.parse(await response.json());
	if (!created.success) throw new Error(created.error.message);
	await expect
		.poll(async () => {
			const poll = await page.request.get(created.pollingUrl);
			return ((await poll.json()) as { status: string }).status;
		})
		.toBe("completed");
	const generation = await page.request.get(`/api/generations/${created.id}`);
	return GenerationSchema.parse(await generation.json());
}

test("a push reaches the service worker, shows the generation's notification, and its click opens the result", async ({
	page,
	context,
}) => {
	await context.grantPermissions(["notifications"], { origin: E2E_BASE_URL });
	await signUp(page, uniqueEmail("push"));

	// The account page offers this device's notifications.
	await page.goto("/account");
	const section = page.getByRole("region", { name: "Notifications on this device" });
	await expect(section.getByText("Off for this device.")).toBeVisible();
	await expect(section.getByRole("button", { name: "Turn on" })).toBeVisible();
	await expectNoAxeViolations(page);

	const generation = await finishGeneration(page);

	// The worker, as turning notifications on registers it; it takes the open tab over.
	const cdp = await context.newCDPSession(page);
	const registrations = new Map<string, string>();
	cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations: updated }) => {
		for (const registration of updated) {
			registrations.set(registration.scopeURL, registration.registrationId);
		}
	});
	await cdp.send("ServiceWorker.enable");
	await page.evaluate(async () => {
		await navigator.serviceWorker.register("/sw.js");
		await navigator.serviceWorker.ready;
	});
	await expect
		.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
		.toBe(true);
	const registrationId = await expect
		.poll(() => registrations.get(`${E2E_BASE_URL}/`))
		.toBeTruthy()
		.then(() => registrations.get(`${E2E_BASE_URL}/`) ?? "");

	// What the server pushes for this generation (push-deliveries.ts), decrypted.
	const pushed = {
		title: "Your images are ready",
		body: PROMPT,
		tag: `generation-${generation.id}`,
		url: `/generations?generation=${generation.id}`,
		image: generation.images[0]?.thumbnailUrl,
	};
	await cdp.send("ServiceWorker.deliverPushMessage", {
		origin: E2E_BASE_URL,
		registrationId,
		data: JSON.stringify(pushed),
	});

	const readNotifications = () =>
		page.evaluate(async () => {
			const registration = await navigator.serviceWorker.ready;
			const shown = await registration.getNotifications();
			return shown.map(({ title, body, tag, data }) => ({ title, body, tag, data }));
		});
	await expect
		.poll(readNotifications)
		.toEqual([{ title: pushed.title, body: PROMPT, tag: pushed.tag, data: { url: pushed.url } }]);

	// The same generation pushed again replaces its notification: one a generation.
	await cdp.send("ServiceWorker.deliverPushMessage", {
		origin: E2E_BASE_URL,
		registrationId,
		data: JSON.stringify(pushed),
	});
	await page.waitForTimeout(500);
	expect(await readNotifications()).toHaveLength(1);

	// The click, in the worker: the open tab goes to the result.
	const [worker] = context.serviceWorkers();
	if (!worker) throw new Error("no service worker");
	await worker.evaluate(async (tag) => {
		const scope = self as unknown as {
			registration: ServiceWorkerRegistration;
			dispatchEvent(event: Event): boolean;
		};
		const [notification] = await scope.registration.getNotifications({ tag });
		const NotificationEventClass = (
			self as unknown as {
				NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
			}
		).NotificationEvent;
		if (notification) {
			scope.dispatchEvent(new NotificationEventClass("notificationclick", { notification }));
		}
	}, pushed.tag);

	await expect(page).toHaveURL(`${E2E_BASE_URL}/generations`);
	await expect(page.getByRole("dialog")).toBeVisible();
	await expect(page.getByRole("dialog").getByText(PROMPT).first()).toBeVisible();
	expect(await readNotifications()).toEqual([]);
});
