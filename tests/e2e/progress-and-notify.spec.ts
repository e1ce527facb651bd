import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, expect, type Page, test } from "@playwright/test";
import { E2E_BASE_URL } from "./support/constants";
import { expectNoAxeViolations, signUp, uniqueEmail } from "./support/journeys";

// What a person waiting for a generation is told: the progress line, the preview, the tab's title,
// the notification, and "1 running" on their other open pages.

const PREVIEW = `data:image/svg+xml,${encodeURIComponent(
	'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#a78bfa"/></svg>',
)}`;

/**
 * Adds a provider's progress report to the first "not yet" the server answers, and holds every
 * later poll until `release` is called. The offline engine reports no steps (the server's own
 * reports come with the `progress` object), so the journey supplies one in the real answer.
 */
async function reportStepsThenHold(page: Page) {
	let release: () => void = () => {};
	const released = new Promise<void>((resolve) => {
		release = resolve;
	});
	let polls = 0;
	await page.route("**/api/generations/*/status*", async (route) => {
		polls += 1;
		if (polls > 1) await released;
		const response = await route.fetch();
		const answer = await response.json();
		if (polls === 1 && (answer.status === "queued" || answer.status === "running")) {
			answer.progress = {
				stage: "running",
				position: null,
				percent: null,
				step: 12,
				steps: 30,
				previewUrl: PREVIEW,
			};
		}
		await route.fulfill({ response, json: answer });
	});
	return release;
}

/**
 * Makes the page hidden or visible, with its visibilitychange event, as when another tab or
 * window comes in front: headless Chromium keeps every tab visible, whichever is in front.
 */
async function setVisibility(page: Page, state: "hidden" | "visible"): Promise<void> {
	await page.evaluate((next) => {
		Object.defineProperty(document, "visibilityState", { configurable: true, get: () => next });
		Object.defineProperty(document, "hidden", {
			configurable: true,
			get: () => next === "hidden",
		});
		document.dispatchEvent(new Event("visibilitychange"));
	}, state);
}

/** Records every notification the page raises, through the browser's own Notification. */
async function recordNotifications(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const Real = window.Notification;
		const shown: string[] = [];
		Object.assign(window, { shownNotifications: shown });
		class Recorded extends Real {
			constructor(title: string, options?: NotificationOptions) {
				super(title, options);
				shown.push(title);
			}
		}
		Object.defineProperty(window, "Notification", { value: Recorded, configurable: true });
	});
}

test("the generator says what is happening, shows the preview and the percent in the title, and another tab counts it running", async ({
	context,
	page,
}) => {
	await context.grantPermissions(["notifications"]);
	await recordNotifications(page);
	await signUp(page, uniqueEmail("progress"));
	const release = await reportStepsThenHold(page);

	// A second tab of the same person, on the history.
	const otherTab = await context.newPage();
	await otherTab.goto("/generations");
	await expect(
		otherTab.getByRole("heading", { level: 1, name: "Saved Generations" }),
	).toBeVisible();
	await expect(otherTab.getByRole("link", { name: /running/ })).toHaveCount(0);

	await page.bringToFront();
	await page.getByRole("textbox", { name: "Prompt" }).fill("A lighthouse keeper's lamp");
	await page.getByRole("button", { name: "Generate", exact: true }).click();

	// Started in this tab, it shows as running in the other one (the offline engine takes 3 s).
	const running = otherTab.getByRole("link", { name: "1 running" });
	await expect(running).toBeVisible();
	await expect(running).toHaveAttribute("href", "/generations");
	await expect(otherTab.getByRole("article", { name: "A lighthouse keeper's lamp" })).toBeVisible();

	const panel = page.getByRole("region", { name: "Result" });
	await expect(panel.getByText("Step 12 of 30")).toBeVisible();
	// Step 12 of 30 is 20 + 75 x 0.4 = 50 on the bar (or more, if the schedule was already past it).
	const bar = panel.getByRole("progressbar");
	expect(Number(await bar.getAttribute("aria-valuenow"))).toBeGreaterThanOrEqual(50);
	await expect(panel.getByRole("img", { name: "Latest preview, not final yet" })).toBeVisible();
	await expect(page).toHaveTitle(/^\d+% · Atelier$/);
	expect(await page.locator('link[rel~="icon"]').getAttribute("href")).toMatch(/^data:image\/svg/);

	const notify = panel.getByRole("switch", { name: "Notify me when done" });
	await notify.click();
	await expect(notify).toHaveAttribute("aria-checked", "true");
	await expectNoAxeViolations(page);

	// It ends while the other tab is in front: the title says so, and a notification is raised.
	await otherTab.bringToFront();
	await setVisibility(page, "hidden");
	release();
	await expect(page).toHaveTitle("Done · Atelier");
	expect(
		await page.evaluate(
			() => (window as unknown as { shownNotifications: string[] }).shownNotifications,
		),
	).toEqual(["Your images are ready"]);
	await expect(running).toHaveCount(0);
	await expectNoAxeViolations(otherTab);

	await page.bringToFront();
	await setVisibility(page, "visible");
	await expect(page).toHaveTitle("Atelier");
	await expect(panel.getByRole("heading", { name: "4 images" })).toBeVisible();
	await expect(panel.getByRole("img", { name: "Latest preview, not final yet" })).toHaveCount(0);
});

test("the app is installable: Chromium finds no installability error in its manifest", async () => {
	// Chromium never offers to install from an incognito profile, which every Playwright context
	// is: this journey opens a profile of its own. localhost is a secure context.
	const profile = await mkdtemp(path.join(tmpdir(), "atelier-install-"));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
		args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
		baseURL: E2E_BASE_URL,
	});
	try {
		const page = context.pages()[0] ?? (await context.newPage());
		await page.goto("/");
		await expect(page.getByRole("textbox", { name: "Prompt" })).toBeVisible();
		const manifest = await page.request.get("/manifest.webmanifest");
		expect(manifest.headers()["content-type"]).toBe("application/manifest+json");

		const session = await context.newCDPSession(page);
		const { url, data } = await session.send("Page.getAppManifest");
		expect(url).toBe(`${E2E_BASE_URL}/manifest.webmanifest`);
		expect(JSON.parse(data ?? "{}")).toMatchObject({ name: "Atelier", display: "standalone" });
		// The icons are fetched and checked too; wait until Chromium has looked at everything.
		await expect
			.poll(async () => (await session.send("Page.getInstallabilityErrors")).installabilityErrors)
			.toEqual([]);
	} finally {
		await context.close();
		await rm(profile, { recursive: true, force: true });
	}
});
