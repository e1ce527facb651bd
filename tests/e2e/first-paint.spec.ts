import { expect, type Page, test } from "@playwright/test";
import { APP_ROUTES, PRERENDERED_SCREENS } from "../../src/shared/core/app-routes";
import { holdAppScript, signUp, uniqueEmail } from "./support/journeys";

// The first screens are prerendered HTML, hydrated by the script
// (docs/decisions/012-prerendering-and-hydration.md).

/** Console errors and warnings, and uncaught errors, from the moment the page starts loading. */
function collectConsoleProblems(page: Page): string[] {
	const problems: string[] = [];
	page.on("console", (message) => {
		if (message.type() === "error" || message.type() === "warning") {
			problems.push(`${message.type()}: ${message.text()}`);
		}
	});
	page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
	return problems;
}

/** Requests to the API, by path, from the moment the page starts loading. */
function collectApiRequests(page: Page): string[] {
	const paths: string[] = [];
	page.on("request", (request) => {
		const { pathname } = new URL(request.url());
		if (pathname.startsWith("/api/")) paths.push(pathname);
	});
	return paths;
}

/** Types into the prompt box and sees the counter follow: React is in charge of the page. */
async function expectGeneratorHydrated(page: Page): Promise<void> {
	await page.getByRole("textbox", { name: "Prompt" }).fill("hydrated");
	await expect(page.getByText("8/500")).toBeVisible();
}

test.describe("without JavaScript", () => {
	test.use({ javaScriptEnabled: false });

	test("/, /login and /signup show their whole first screen; an unknown path the 404 page", async ({
		page,
	}) => {
		const home = await page.goto("/");
		expect(home?.status()).toBe(200);
		const header = page.getByRole("banner");
		await expect(header.getByRole("button", { name: "Atelier" })).toBeVisible();
		await expect(header.getByRole("link", { name: "Sign In" })).toBeVisible();
		await expect(header.getByRole("button", { name: "Sign in with Google" })).toBeVisible();
		await expect(
			page.getByRole("heading", { level: 1, name: "Create with Atelier" }),
		).toBeVisible();
		await expect(page.getByRole("textbox", { name: "Prompt" })).toBeVisible();
		await expect(page.getByText("0/500")).toBeVisible();
		await expect(page.getByRole("combobox", { name: "Aspect ratio" })).toContainText("Square");
		await expect(page.getByRole("button", { name: "Generate" })).toBeVisible();
		await expect(page.getByText("Built-in offline engine.")).toBeVisible();
		const result = page.getByRole("region", { name: "Result" });
		await expect(result.getByRole("heading", { name: "No images to display" })).toBeVisible();
		await expect(result.getByRole("listitem")).toHaveCount(3);

		// The background pattern, which a page with scripts draws after its first frame, at once.
		await expect(page.locator("body")).toHaveAttribute("data-pattern-after-paint");
		await expect(page.locator("body")).toHaveCSS("background-image", /linear-gradient/);

		expect((await page.goto("/login"))?.status()).toBe(200);
		await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
		await expect(page.getByLabel("Email")).toBeVisible();
		await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
		await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
		await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
		await expect(page.getByRole("link", { name: "Sign up" })).toBeVisible();

		expect((await page.goto("/signup"))?.status()).toBe(200);
		await expect(
			page.getByRole("heading", { level: 1, name: "Create your account" }),
		).toBeVisible();
		await expect(page.getByLabel("Email")).toBeVisible();
		await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
		await expect(page.getByLabel("Confirm password")).toBeVisible();
		await expect(page.getByRole("button", { name: "Sign Up" })).toBeVisible();

		expect((await page.goto("/no/such/page"))?.status()).toBe(404);
		await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
		await expect(page.getByRole("link", { name: "Go to Home" })).toBeVisible();
	});

	test("every route of the route table answers 200 with its screen or a note that it needs JavaScript, never Page Not Found", async ({
		page,
	}) => {
		for (const route of APP_ROUTES) {
			const concretePath = route.path.replace(/:[^/]+/g, "x");
			const response = await page.goto(concretePath);
			expect({ path: concretePath, status: response?.status() }).toEqual({
				path: concretePath,
				status: 200,
			});
			await expect(page.locator("body")).not.toContainText("Page Not Found");
			// getByText does not look inside <noscript>, whose text shows with JavaScript off.
			const note = page
				.getByRole("paragraph")
				.filter({ hasText: "This screen of Atelier needs JavaScript." });
			if (PRERENDERED_SCREENS.includes(route.screen)) {
				await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
				await expect(note).toHaveCount(0);
			} else {
				await expect(note).toBeVisible();
			}
		}
		// The password-reset link from the mail, with its token.
		expect((await page.goto("/reset-password?token=abc"))?.status()).toBe(200);
		await expect(
			page.getByRole("paragraph").filter({ hasText: "This screen of Atelier needs JavaScript." }),
		).toBeVisible();
	});
});

test("the first frame shows the content on the plain canvas, and the background pattern comes once it is on the screen", async ({
	page,
}) => {
	// Registered before the page's own scripts, this observer hears of the first contentful paint
	// before the loader does: what it reads is the page as that frame drew it.
	await page.addInitScript(() => {
		new PerformanceObserver((list, observer) => {
			if (!list.getEntriesByName("first-contentful-paint").length) return;
			observer.disconnect();
			(window as unknown as { firstFramePattern: string }).firstFramePattern = getComputedStyle(
				document.body,
			).backgroundImage;
		}).observe({ type: "paint", buffered: true });
	});
	const response = await page.goto("/");
	expect(await response?.text()).toContain('<body data-pattern="grid" data-pattern-after-paint>');
	await expect
		.poll(() => page.evaluate(() => (window as { firstFramePattern?: string }).firstFramePattern))
		.toBe("none");
	await expect(page.locator("body")).toHaveCSS("background-image", /linear-gradient/);
	await expect(page.locator("body")).not.toHaveAttribute("data-pattern-after-paint");
	await expectGeneratorHydrated(page);
});

test("signed out, the pages hydrate without a console warning and ask the API nothing but the models", async ({
	page,
}) => {
	const problems = collectConsoleProblems(page);
	const apiRequests = collectApiRequests(page);

	await page.goto("/");
	await expectGeneratorHydrated(page);

	await page.goto("/login");
	await page.getByRole("button", { name: "Show password" }).click();
	await expect(page.getByRole("button", { name: "Hide password" })).toBeVisible();

	await page.goto("/signup");
	await page.getByRole("link", { name: "Sign in" }).click();
	await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();

	await page.goto("/forgot-password");
	await page.getByRole("link", { name: "Sign in" }).click();
	await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();

	await page.goto("/no/such/page");
	await page.getByRole("link", { name: "Go to Home" }).click();
	await expectGeneratorHydrated(page);

	// The browser reports the 404 page's own status; nothing else may be said.
	expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
	// Nobody is signed in without a session cookie, and the page carries the public config. The
	// generator asks for the models it offers once it is on the screen: the page, prerendered at
	// build time, cannot carry what the operator's MODELS_FILE says.
	expect(apiRequests.filter((path) => path !== "/api/models")).toEqual([]);
});

test("signed in, the session is asked for once, with the page, and the header keeps its place", async ({
	page,
}) => {
	await signUp(page, uniqueEmail("first-paint"));
	const problems = collectConsoleProblems(page);
	const apiRequests = collectApiRequests(page);
	const navigation = page.getByRole("navigation", { name: "Account" });

	await page.goto("/");
	const boxWhileLoading = await navigation.boundingBox();
	await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
	await expectGeneratorHydrated(page);
	const boxSignedIn = await navigation.boundingBox();
	expect(boxSignedIn?.x).toBe(boxWhileLoading?.x);
	expect(boxSignedIn?.width).toBe(boxWhileLoading?.width);
	expect(apiRequests.filter((path) => path === "/api/auth/get-session")).toHaveLength(1);
	expect(apiRequests).not.toContain("/api/config");

	await page.goto("/login");
	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();

	expect(problems).toEqual([]);
});

test("the prerendered home screen paints before the app's script is even asked for", async ({
	page,
}) => {
	// Asked for with the page, the script arrived at once on a fast network and the first paint
	// waited for its evaluation and the hydration; the page's loader now asks for it only once the
	// first content is on the screen.
	await page.goto("/");
	await expectGeneratorHydrated(page);
	const order = await page.evaluate(() => {
		const paint = performance.getEntriesByName("first-contentful-paint")[0];
		const scripts = performance
			.getEntriesByType("resource")
			.filter((entry) => /\/assets\/index-[^/]+\.js$/.test(entry.name));
		return {
			hasPainted: paint !== undefined,
			scriptsAskedBeforePaint: scripts.filter(
				(entry) => paint === undefined || entry.startTime < paint.startTime,
			).length,
			scriptsAsked: scripts.length,
		};
	});
	expect(order).toEqual({ hasPainted: true, scriptsAskedBeforePaint: 0, scriptsAsked: 1 });
});

test("text typed into the prompt box before the script runs is kept", async ({ page }) => {
	const releaseScript = await holdAppScript(page);

	await page.goto("/", { waitUntil: "commit" });
	await page.getByRole("textbox", { name: "Prompt" }).fill("A kite over the dunes");
	releaseScript();

	await expect(page.getByText("21/500")).toBeVisible();
	await expect(page.getByRole("button", { name: "Generate" })).toBeEnabled();
});

test("text typed into the prompt box while the app starts and hydrates is kept, key by key", async ({
	page,
}) => {
	// The typing starts as soon as the prompt box is in the page and goes on while the app's script
	// arrives, runs and hydrates the screen, so keys fall before, during and after each step.
	const text = "A lighthouse on a cliff at dawn, oil on canvas, warm light from the left";
	await page.goto("/", { waitUntil: "commit" });
	const prompt = page.getByRole("textbox", { name: "Prompt" });
	await prompt.focus();
	await page.keyboard.type(text, { delay: 15 });

	await expect(prompt).toHaveValue(text);
	await expect(page.getByText(`${text.length}/500`)).toBeVisible();
	await expect(page.getByRole("button", { name: "Generate" })).toBeEnabled();
});

test("the notes under Generate, whose code comes after the screen's, stay while the screen is used", async ({
	page,
}) => {
	// The notes are prerendered and hydrated once their own chunk has loaded (decision 005): a render
	// of the screen meanwhile must leave them in the page, not render them again without their code.
	let releaseNotes: () => void = () => {};
	const held = new Promise<void>((resolve) => {
		releaseNotes = resolve;
	});
	let notesAsked = false;
	await page.route(/\/assets\/generator-notes-[^/]+\.js$/, async (route) => {
		notesAsked = true;
		await held;
		await route.continue();
	});
	const notes = [
		page.getByText("Outside the text box:"),
		page.getByText("Built-in offline engine."),
	];

	await page.goto("/");
	await expectGeneratorHydrated(page);
	// The notes' chunk is asked for once the screen around it has hydrated, in a task of its own.
	await expect.poll(() => notesAsked).toBe(true);
	for (const note of notes) await expect(note).toBeVisible();
	releaseNotes();
	await page.getByRole("textbox", { name: "Prompt" }).fill("hydrated again");
	await expect(page.getByText("14/500")).toBeVisible();
	for (const note of notes) await expect(note).toBeVisible();
});

test("the tab's icon is a small PNG, which the page decodes at once", async ({ page, request }) => {
	// An SVG icon is laid out and painted as a document of its own on the page's main thread, right
	// after the first paint: a task of about 25 ms here, over 100 ms on Lighthouse's mobile CPU.
	await page.goto("/");
	const href = await page.locator('link[rel~="icon"]').getAttribute("href");
	const response = await request.get(href ?? "/");
	expect(response.status()).toBe(200);
	expect(response.headers()["content-type"]).toBe("image/png");
	expect((await response.body()).length).toBeLessThan(2_000);
});

test("the results show display copies and thumbnails, never the originals", async ({ page }) => {
	await page.setViewportSize({ width: 1280, height: 900 });
	await signUp(page, uniqueEmail("display-copies"));
	const images: string[] = [];
	page.on("request", (request) => {
		const { pathname } = new URL(request.url());
		if (pathname.startsWith("/api/images/")) images.push(pathname);
	});

	await page.getByRole("textbox", { name: "Prompt" }).fill("A harbour at night, lanterns");
	await page.getByRole("button", { name: "Generate" }).click();
	const panel = page.getByRole("region", { name: "Result" });
	await expect(panel.getByRole("heading", { name: "4 images" })).toBeVisible({ timeout: 20_000 });
	// A square image 20rem wide on a 1x screen: the 384 px thumbnail covers it.
	const first = panel.getByRole("button", { name: "Open image 1 of 4" });
	const readSource = (image: HTMLImageElement) => (image.complete ? image.currentSrc : "");
	await expect
		.poll(() => first.locator("img").last().evaluate(readSource))
		.toMatch(/-thumb\.webp$/);
	// The preview is larger: the display copy.
	await first.click();
	const dialog = page.getByRole("dialog", { name: "Image 1 of 4" });
	await expect.poll(() => dialog.getByRole("img").evaluate(readSource)).toMatch(/-display\.webp$/);
	await page.keyboard.press("Escape");

	expect(images.some((path) => path.endsWith("-display.webp"))).toBe(true);
	expect(images.filter((path) => !/-(display|thumb)\.webp$/.test(path))).toEqual([]);
});
