import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
	type Browser,
	type BrowserContext,
	chromium,
	expect,
	type Page,
	test,
} from "@playwright/test";
import { type FakeComfyUi, startFakeComfyUi } from "../../src/server/testing/fakes/comfyui";
import {
	type FakeHttpImageService,
	startFakeHttpImageService,
} from "../../src/server/testing/fakes/http-image-service";
import { ActiveGenerationsSchema } from "../../src/shared/generations/generation-responses";
import { removeDataDir, startAppServer } from "./support/app-server";
import { E2E_BASE_URL, E2E_PORT } from "./support/constants";
import { expectNoAxeViolations, signIn, signUp, uniqueEmail } from "./support/journeys";

// What a person waiting for a generation is told: the progress line, the preview, the tab's title,
// the notification, and "1 running" on their other open pages.

// One server of its own: one worker (GENERATION_CONCURRENCY=1), so generations wait their turn,
// and three models whose jobs the journeys hold and release: the offline engine, a start-then-poll
// service (its jobs end when the journey lets them) and a ComfyUI (its sampler steps and preview
// frames sent by the journey, as ComfyUI's WebSocket sends them).
const PORT = E2E_PORT + 20;
const BASE_URL = `http://localhost:${PORT}`;
test.use({ baseURL: BASE_URL });

/** Longer than any journey: a job held this long ends only when the journey releases it. */
const HELD_MS = 10 * 60_000;

let server: Awaited<ReturnType<typeof startAppServer>>;
let comfy: FakeComfyUi;
let service: FakeHttpImageService;
let modelsFolder: string;

test.beforeAll(async () => {
	comfy = await startFakeComfyUi({ behaviour: { pendingMs: 0, runningMs: HELD_MS, steps: 0 } });
	service = await startFakeHttpImageService({ latencyMs: HELD_MS });
	modelsFolder = await mkdtemp(path.join(tmpdir(), "atelier-progress-models-"));
	const modelsFile = path.join(modelsFolder, "models.json");
	await writeFile(
		modelsFile,
		JSON.stringify([
			{ id: "local", label: "Offline engine", provider: "local", default: true, delayMs: 0 },
			{ id: "service", label: "Image service", provider: "http", url: service.url },
			{ id: "comfy", label: "ComfyUI workflow", provider: "comfyui", url: comfy.origin },
		]),
	);
	server = await startAppServer({
		port: PORT,
		env: {
			MODELS_FILE: modelsFile,
			GENERATION_CONCURRENCY: "1",
			MAX_ACTIVE_GENERATIONS_PER_USER: "10",
			AUTH_RATE_LIMIT_ENABLED: "false",
		},
	});
});

test.afterAll(async () => {
	await server?.stop();
	await comfy?.stop();
	await service?.stop();
	if (server) await removeDataDir(server.dataDir);
	await rm(modelsFolder, { recursive: true, force: true });
});

test.beforeEach(() => {
	comfy.setBehaviour({ runningMs: HELD_MS });
	service.setBehaviour({ latencyMs: HELD_MS });
});

/** Another person (or the same one on another device): a browser context of their own, signed in. */
async function openElsewhere(
	browser: Browser,
	email: string,
	isNew = true,
): Promise<BrowserContext> {
	const context = await browser.newContext({ baseURL: BASE_URL });
	const page = await context.newPage();
	await (isNew ? signUp(page, email) : signIn(page, email));
	await page.close();
	return context;
}

/** Starts a generation through the API, with the context's session, as a script would; its id. */
async function startThroughApi(
	context: BrowserContext,
	prompt: string,
	model: string,
): Promise<string> {
	const response = await context.request.post("/api/generations", {
		data: { prompt, aspectRatio: "--ar 1:1", model },
	});
	expect(response.status()).toBe(201);
	const { id } = (await response.json()) as { id: string };
	return id;
}

/** The statuses of the context's person's active generations, oldest first. */
async function readActiveStatuses(context: BrowserContext): Promise<string[]> {
	const response = await context.request.get("/api/generations/active");
	return ActiveGenerationsSchema.parse(await response.json()).items.map((item) => item.status);
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

/**
 * Records every notification the page raises, through the browser's own Notification: the titles
 * in `shownNotifications`, the notifications themselves in `raisedNotifications`.
 */
async function recordNotifications(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const Real = window.Notification;
		const shown: string[] = [];
		const raised: Notification[] = [];
		Object.assign(window, { shownNotifications: shown, raisedNotifications: raised });
		class Recorded extends Real {
			constructor(title: string, options?: NotificationOptions) {
				super(title, options);
				shown.push(title);
				raised.push(this);
			}
		}
		Object.defineProperty(window, "Notification", { value: Recorded, configurable: true });
	});
}

type RecordedWindow = { shownNotifications: string[]; raisedNotifications: Notification[] };

/** The title and tag of each notification the page raised. */
function readRaisedNotifications(page: Page): Promise<{ title: string; tag: string }[]> {
	return page.evaluate(() =>
		(window as unknown as RecordedWindow).raisedNotifications.map(({ title, tag }) => ({
			title,
			tag,
		})),
	);
}

/** A click on the last notification raised, as the browser passes it to the page. */
async function clickLastNotification(page: Page): Promise<void> {
	await page.evaluate(() => {
		const notification = (window as unknown as RecordedWindow).raisedNotifications.at(-1);
		notification?.onclick?.call(notification, new Event("click"));
	});
}

test("a queued generation says how many go before it; on ComfyUI it shows the sampler's step, its preview and the percent in the title, and a notification when it ends unseen", async ({
	browser,
	context,
	page,
}) => {
	// Ada's first generation holds the one worker and her second waits; then Bo asks for one.
	const ada = await openElsewhere(browser, uniqueEmail("ada"));
	const bo = await openElsewhere(browser, uniqueEmail("bo"));
	await startThroughApi(ada, "Ada's held harbour", "service");
	await expect.poll(() => readActiveStatuses(ada)).toEqual(["running"]);
	await startThroughApi(ada, "Ada's second harbour", "service");
	await startThroughApi(bo, "Bo's held orchard", "service");

	await context.grantPermissions(["notifications"]);
	await recordNotifications(page);
	await signUp(page, uniqueEmail("progress"));
	// Chosen before anything runs: the switch is among the generator's settings.
	const form = page.getByRole("form", { name: "Generate images" });
	const notify = form.getByRole("switch", { name: "Notify me when done" });
	await notify.click();
	await expect(notify).toHaveAttribute("aria-checked", "true");
	await form.getByLabel("Model", { exact: true }).selectOption("comfy");
	await page.getByRole("textbox", { name: "Prompt" }).fill("A lighthouse keeper's lamp");
	await page.getByRole("button", { name: "Generate", exact: true }).click();

	// The fair queue: Bo and this person have had no turn (Bo asked first), Ada has had hers, so
	// only Bo's goes before this one (first come, first served would say 2).
	const panel = page.getByRole("region", { name: "Result" });
	await expect(panel.getByText("1 ahead of you")).toBeVisible();
	// However long it waits and however often the queue moves, the bar holds where polling begins.
	await expect(panel.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "20");
	await expectNoAxeViolations(page);

	// The service's jobs end: Ada's first, then Bo's, then this one reaches ComfyUI and runs there.
	service.setBehaviour({ latencyMs: 0 });
	await expect.poll(() => comfy.promptIds().length, { timeout: 30_000 }).toBe(1);
	await expect.poll(() => comfy.socketCount()).toBeGreaterThan(0);
	await comfy.sendProgress(comfy.promptIds()[0] ?? "", 12, 30, true);

	await expect(panel.getByText("Step 12 of 30")).toBeVisible();
	// Step 12 of 30 is 20 + 75 x 0.4 = 50 on the bar, exactly: the wait in the queue held it at 20,
	// and only the few answers of the run's start before the step moved SPEC.md's schedule on.
	const bar = panel.getByRole("progressbar");
	await expect(bar).toHaveAttribute("aria-valuenow", "50");
	await expect(panel.getByRole("img", { name: "Latest preview, not final yet" })).toBeVisible();
	await expect(page).toHaveTitle(/^\d+% · Atelier$/);
	expect(await page.locator('link[rel~="icon"]').getAttribute("href")).toMatch(/^data:image\/svg/);
	await expectNoAxeViolations(page);

	// It ends while another window is in front: the title says so, and a notification is raised.
	await setVisibility(page, "hidden");
	comfy.setBehaviour({ runningMs: 0 });
	await expect(page).toHaveTitle("Done · Atelier", { timeout: 30_000 });
	expect(
		await page.evaluate(() => (window as unknown as RecordedWindow).shownNotifications),
	).toEqual(["Your images are ready"]);

	await setVisibility(page, "visible");
	await expect(page).toHaveTitle("Atelier");
	await expect(panel.getByRole("heading", { name: "4 images" })).toBeVisible();
	await expect(panel.getByRole("img", { name: "Latest preview, not final yet" })).toHaveCount(0);
	// Ada's second came after it, and now ends too.
	await expect.poll(() => readActiveStatuses(ada), { timeout: 30_000 }).toEqual([]);
	await ada.close();
	await bo.close();
});

test("a generation started through the API from another device shows as running, with its progress, on an open page's header and history, and a notification from that page when it ends unseen", async ({
	browser,
	context,
	page,
}) => {
	const email = uniqueEmail("elsewhere");
	await context.grantPermissions(["notifications"]);
	await recordNotifications(page);
	await signUp(page, email);
	// Notify me when done, turned on earlier (the switch stores it so once the browser allows it).
	await page.evaluate(() => window.localStorage.setItem("atelier:notify-when-done", "on"));
	await page.goto("/generations");
	await expect(page.getByRole("heading", { level: 1, name: "Saved Generations" })).toBeVisible();
	await expect(page.getByRole("link", { name: /running/ })).toHaveCount(0);

	const phone = await openElsewhere(browser, email, false);
	const id = await startThroughApi(phone, "A kite over the dunes", "service");

	const running = page.getByRole("link", { name: "1 running" });
	await expect(running).toBeVisible();
	await expect(running).toHaveAttribute("href", "/generations");
	await expect(running).toHaveText("1 running", { useInnerText: true });
	// A phone's header has room for less, and the badge still says what it counts.
	const viewport = page.viewportSize();
	await page.setViewportSize({ width: 360, height: 740 });
	await expect(running).toHaveText("1 run", { useInnerText: true });
	await expect(running).toHaveAccessibleName("1 running");
	if (viewport) await page.setViewportSize(viewport);
	const card = page.getByRole("article", { name: "A kite over the dunes" });
	await expect(card).toBeVisible();
	// The service says nothing of how far it is: a bar without a value, as on the generator's line.
	await expect(card.getByRole("progressbar", { name: "Generation progress" })).toBeVisible();
	await expectNoAxeViolations(page);

	// It ends while another window is in front: this page, which never followed it, says so.
	await setVisibility(page, "hidden");
	service.setBehaviour({ latencyMs: 0 });
	await expect(running).toHaveCount(0, { timeout: 30_000 });
	await expect
		.poll(() => readRaisedNotifications(page))
		.toEqual([{ title: "Your images are ready", tag: `generation-${id}` }]);
	await expect(card).toBeVisible();
	await expect(card.getByRole("progressbar")).toHaveCount(0);

	await setVisibility(page, "visible");
	await clickLastNotification(page);
	await expect(page.getByRole("dialog", { name: /^Image 1 of \d+$/ })).toBeVisible();
	await expect(page).toHaveURL(/\/generations$/);
	await phone.close();
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
