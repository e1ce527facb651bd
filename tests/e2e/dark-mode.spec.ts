import { mkdir } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { E2E_BASE_URL } from "./support/constants";
import {
	createGenerations,
	openAccount,
	openAdministratorAccount,
	revealCard,
} from "./support/history";
import { expectNoAxeViolations, uniqueEmail, waitForTransitions } from "./support/journeys";

// The dark theme (docs/decisions/035-dark-mode.md): every screen the journeys visit passes axe in
// it, and a page paints in the theme it should from its very first frame.

const DARK_SCREENSHOT = "docs/images/dark-mode.png";

// Each journey visits many screens, with axe on each, on a machine other journeys share.
test.describe.configure({ timeout: 180_000 });

type Theme = "light" | "dark";

/** The theme the page's <html> is painted in, and its background as the browser computed it. */
async function readTheme(page: Page): Promise<{ attribute?: string; background: string }> {
	return page.evaluate(() => ({
		attribute: document.documentElement.dataset.theme,
		background: getComputedStyle(document.body).backgroundColor,
	}));
}

async function expectTheme(page: Page, theme: Theme): Promise<void> {
	const { attribute, background } = await readTheme(page);
	expect(attribute).toBe(theme);
	// The canvas: #0c111c dark, #f9fafb light.
	expect(background).toBe(theme === "dark" ? "rgb(12, 17, 28)" : "rgb(249, 250, 251)");
}

/** axe's text contrast rule (at least 4.5:1) on what the page shows now. */
async function expectReadableText(page: Page): Promise<void> {
	const results = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
	expect(
		results.violations.flatMap((violation) => violation.nodes.map((node) => node.target)),
	).toEqual([]);
}

/** How bright a frame is on the whole, 0 to 255. */
async function readBrightness(frame: Buffer): Promise<number> {
	const { data } = await sharp(frame).resize(1, 1, { fit: "fill" }).raw().toBuffer({
		resolveWithObject: true,
	});
	return ((data[0] ?? 0) + (data[1] ?? 0) + (data[2] ?? 0)) / 3;
}

/**
 * The brightness of every frame Chromium's compositor produced while `navigate` loaded a page,
 * from its first paint until the page stood still. Until the new page paints, the screen keeps what
 * was there: given `before`, a blank page of that theme's background, so that only the loaded page's
 * frames can fail; else the page already open (a reload).
 */
async function recordFrames(
	page: Page,
	before: Theme | undefined,
	navigate: () => Promise<unknown>,
): Promise<number[]> {
	if (before) {
		await page.goto("about:blank");
		await page.setContent(
			`<body style="margin:0;height:100vh;background:${before === "dark" ? "#000" : "#fff"}"></body>`,
		);
	}
	const cdp = await page.context().newCDPSession(page);
	const frames: Buffer[] = [];
	cdp.on("Page.screencastFrame", ({ data, sessionId }) => {
		frames.push(Buffer.from(data, "base64"));
		void cdp.send("Page.screencastFrameAck", { sessionId }).catch(() => {});
	});
	await cdp.send("Page.startScreencast", { format: "png", everyNthFrame: 1 });
	await navigate();
	await expect(page.getByRole("heading", { level: 1, name: "Create with Atelier" })).toBeVisible();
	await expect(page.getByRole("textbox", { name: "Prompt" })).toBeEditable();
	await page.waitForTimeout(500);
	await cdp.send("Page.stopScreencast");
	await cdp.detach();
	return Promise.all(frames.map(readBrightness));
}

async function expectEveryFrame(frames: number[], theme: Theme): Promise<void> {
	expect(frames.length).toBeGreaterThan(0);
	for (const brightness of frames) {
		if (theme === "dark") expect(brightness).toBeLessThan(80);
		else expect(brightness).toBeGreaterThan(180);
	}
}

async function chooseTheme(page: Page, label: "System" | "Light" | "Dark"): Promise<void> {
	await page.getByRole("button", { name: "Account menu" }).click();
	const saved = page.waitForResponse(
		(response) =>
			response.url().endsWith("/api/account/settings") &&
			response.request().method() === "PATCH" &&
			response.ok(),
	);
	await page.getByRole("menuitemradio", { name: label }).click();
	await saved;
	await expect(page.getByRole("menuitemradio", { name: label })).toHaveAttribute(
		"aria-checked",
		"true",
	);
	// The menu, in the theme just chosen, under the page that changed behind it.
	await waitForTransitions(page);
	await expectReadableText(page);
	await page.keyboard.press("Escape");
	await expect(page.getByRole("menu")).toHaveCount(0);
}

/** A signed-in person with one finished generation, their browser in the given scheme. */
async function openPersonWithResult(
	browser: Parameters<typeof openAccount>[0],
	prefix: string,
	colorScheme: Theme,
): Promise<{ context: BrowserContext; prompt: string }> {
	const email = uniqueEmail(prefix);
	const setup = await openAccount(browser, email);
	const prompt = `A lantern-lit harbour at night ${Date.now()}`;
	await createGenerations(setup.request, [{ prompt, aspectRatio: "--ar 3:2", count: 2 }]);
	const state = await setup.storageState();
	await setup.close();
	const context = await browser.newContext({
		baseURL: E2E_BASE_URL,
		colorScheme,
		storageState: state,
	});
	// Copy prompt writes to the clipboard.
	await context.grantPermissions(["clipboard-read", "clipboard-write"]);
	return { context, prompt };
}

/** The generator, the history with a result, its preview and the account page, axe on each. */
async function visitPersonScreens(page: Page, prompt: string, theme: Theme): Promise<void> {
	await page.goto("/");
	await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
	await expectTheme(page, theme);
	await expectNoAxeViolations(page);

	await page.goto("/generations");
	const card = await revealCard(page, prompt);
	await expect(card.getByRole("button", { name: "Preview image 1 of 2" })).toBeVisible();
	await page.mouse.move(0, 0);
	await waitForTransitions(page);
	await expectTheme(page, theme);
	await expectNoAxeViolations(page);

	// A card's menu, and a toast, in the theme too.
	await card.getByRole("button", { name: "More actions" }).click();
	const menu = page.getByRole("menu");
	await expect(menu).toBeVisible();
	await waitForTransitions(page);
	// Contrast only: the open menu is portalled outside the page's landmarks, which axe's region
	// rule reports in either theme.
	await expectReadableText(page);
	await menu.getByRole("menuitem", { name: "Copy prompt" }).click();
	const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Prompt copied" });
	await expect(toast).toBeVisible();
	await waitForTransitions(page);
	// A success toast's background: the theme's emerald-50 (styles.css, through lib/ui/toaster.css).
	expect(await toast.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
		theme === "dark" ? "rgb(13, 38, 32)" : "rgb(236, 253, 245)",
	);
	await expectNoAxeViolations(page);

	await card.getByRole("button", { name: "Preview image 1 of 2" }).click();
	const dialog = page.getByRole("dialog", { name: "Image 1 of 2" });
	await expect(dialog).toBeVisible();
	await waitForTransitions(page);
	// Images are shown as they are: nothing filters or tints them.
	const filters = await dialog
		.getByRole("img")
		.evaluateAll((images) => images.map((image) => getComputedStyle(image).filter));
	expect(filters.every((filter) => filter === "none")).toBe(true);
	await expectNoAxeViolations(page);
	await page.keyboard.press("Escape");
	await expect(dialog).toHaveCount(0);

	await page.goto("/account");
	await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
	await waitForTransitions(page);
	await expectTheme(page, theme);
	await expectNoAxeViolations(page);
}

test("with the system dark, every screen a person and the administrator visit is dark and passes axe", async ({
	browser,
}) => {
	const { context, prompt } = await openPersonWithResult(browser, "dana", "dark");
	const page = await context.newPage();
	await visitPersonScreens(page, prompt, "dark");

	// The README's picture of the dark theme: the history with its result.
	await page.goto("/generations");
	const card = await revealCard(page, prompt);
	await expect(card.getByRole("button", { name: "Preview image 1 of 2" })).toBeVisible();
	await page.evaluate(() => window.scrollTo(0, 0));
	await page.mouse.move(0, 0);
	await waitForTransitions(page);
	await mkdir("docs/images", { recursive: true });
	await page.screenshot({ path: DARK_SCREENSHOT });
	await context.close();

	const admin = await openAdministratorAccount(browser);
	const adminState = await admin.storageState();
	await admin.close();
	const adminContext = await browser.newContext({
		baseURL: E2E_BASE_URL,
		colorScheme: "dark",
		storageState: adminState,
	});
	const adminPage = await adminContext.newPage();
	for (const [address, heading] of [
		["/admin/people", "People"],
		["/admin/usage", "Usage"],
		["/admin/audit-log", "Audit log"],
	] as const) {
		await adminPage.goto(address);
		await expect(adminPage.getByRole("heading", { level: 1, name: heading })).toBeVisible();
		if (heading === "Usage") {
			await expect(
				adminPage.getByRole("img", { name: /^Generations per day by model: chart\./ }),
			).toBeVisible();
		}
		await waitForTransitions(adminPage);
		await expectTheme(adminPage, "dark");
		await expectNoAxeViolations(adminPage);
	}
	await adminContext.close();
});

test("Dark chosen in the menu with the system light: every screen is dark and passes axe, and a reload paints dark from its first frame", async ({
	browser,
}) => {
	const { context, prompt } = await openPersonWithResult(browser, "dev", "light");
	const page = await context.newPage();
	await page.goto("/");
	await expectTheme(page, "light");
	await chooseTheme(page, "Dark");
	await expectTheme(page, "dark");
	await visitPersonScreens(page, prompt, "dark");

	await expectEveryFrame(await recordFrames(page, "dark", () => page.goto("/")), "dark");
	await expectEveryFrame(await recordFrames(page, undefined, () => page.reload()), "dark");
	await expectTheme(page, "dark");

	// Another browser of the same person takes the account's choice once the user menu has loaded.
	const elsewhere = await browser.newContext({
		baseURL: E2E_BASE_URL,
		colorScheme: "light",
		// The session only: this browser has nothing stored of its own.
		storageState: { cookies: (await context.storageState()).cookies, origins: [] },
	});
	const other = await elsewhere.newPage();
	await other.goto("/");
	await expect(other.getByRole("button", { name: "Account menu" })).toBeVisible();
	await expect.poll(async () => (await readTheme(other)).attribute).toBe("dark");
	await elsewhere.close();
	await context.close();
});

test("the first paint of / follows the system's dark scheme, and Light chosen with the system dark paints light", async ({
	browser,
}) => {
	const visitor = await browser.newContext({ baseURL: E2E_BASE_URL, colorScheme: "dark" });
	const page = await visitor.newPage();
	await expectEveryFrame(await recordFrames(page, "dark", () => page.goto("/")), "dark");
	await expectTheme(page, "dark");
	await expectNoAxeViolations(page);
	// The other prerendered first screens a visitor meets, dark and readable too.
	for (const address of ["/login", "/signup"]) {
		await page.goto(address);
		await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
		await waitForTransitions(page);
		await expectTheme(page, "dark");
		await expectNoAxeViolations(page);
	}
	await visitor.close();

	const email = uniqueEmail("lena");
	const setup = await openAccount(browser, email);
	const state = await setup.storageState();
	await setup.close();
	const context = await browser.newContext({
		baseURL: E2E_BASE_URL,
		colorScheme: "dark",
		storageState: state,
	});
	const person = await context.newPage();
	await person.goto("/");
	await expect(person.getByRole("button", { name: "Account menu" })).toBeVisible();
	await expectTheme(person, "dark");
	await chooseTheme(person, "Light");
	await expectTheme(person, "light");
	// The reload's recording starts from the screen as it stands: the switch's colour transitions
	// must have ended, or its first frame still holds the dark page.
	await waitForTransitions(person);
	await expectEveryFrame(await recordFrames(person, undefined, () => person.reload()), "light");
	await expectEveryFrame(await recordFrames(person, "light", () => person.goto("/")), "light");
	await expectTheme(person, "light");
	await expectNoAxeViolations(person);
	await context.close();
});
