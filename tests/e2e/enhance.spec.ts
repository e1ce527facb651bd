import { expect, type Page, test } from "@playwright/test";
import {
	FAKE_OPENAI_KEY,
	type FakeOpenAi,
	startFakeOpenAi,
} from "../../src/server/testing/fakes/openai";
import { FAKE_REWRITE_SUFFIX } from "../../src/server/testing/fakes/openai-chat";
import { GenerationSchema } from "../../src/shared/generations/generations";
import { removeDataDir, startAppServer } from "./support/app-server";
import { E2E_PORT } from "./support/constants";
import { expectNoAxeViolations, signUp, uniqueEmail } from "./support/journeys";

// Enhance against a server of its own whose chat endpoint is the local OpenAI fake: a rewrite
// proposed and used by keyboard, taken back with Ctrl+Z, and kept beside the original on the
// generation made from it.

const PORT = E2E_PORT + 16;
const BASE_URL = `http://localhost:${PORT}`;
test.use({ baseURL: BASE_URL });

let server: Awaited<ReturnType<typeof startAppServer>>;
let chat: FakeOpenAi;

test.beforeAll(async () => {
	chat = await startFakeOpenAi();
	server = await startAppServer({
		port: PORT,
		env: {
			AUTH_RATE_LIMIT_ENABLED: "false",
			ENHANCE_BASE_URL: chat.baseUrl,
			ENHANCE_API_KEY: FAKE_OPENAI_KEY,
			ENHANCE_MODEL: "gpt-4.1-mini",
		},
	});
});

test.afterAll(async () => {
	await server?.stop();
	await chat?.stop();
	if (server) await removeDataDir(server.dataDir);
});

/** Presses Tab until `name`'s button has the focus (at most 20 times). */
async function tabTo(page: Page, name: string): Promise<void> {
	const target = page.getByRole("button", { name, exact: true });
	for (let step = 0; step < 20; step++) {
		if (await target.evaluate((element) => element === document.activeElement)) return;
		await page.keyboard.press("Tab");
	}
	await expect(target).toBeFocused();
}

test("a rewrite is proposed, used and taken back by keyboard, and kept beside the original", async ({
	page,
}) => {
	await signUp(page, uniqueEmail("enhance"));
	const prompt = page.getByRole("textbox", { name: "Prompt" });
	await prompt.click();
	await page.keyboard.type("A lighthouse at dusk");

	await tabTo(page, "Enhance");
	await page.keyboard.press("Enter");
	const proposal = page.getByRole("region", { name: "Enhanced prompt" });
	await expect(proposal).toContainText(`A lighthouse at dusk${FAKE_REWRITE_SUFFIX}`);
	await expect(proposal.getByRole("heading", { name: "Enhanced prompt" })).toBeFocused();
	await expect(prompt).toHaveValue("A lighthouse at dusk");
	await expectNoAxeViolations(page);

	await page.keyboard.press("Tab");
	await expect(proposal.getByRole("button", { name: "Use" })).toBeFocused();
	await page.keyboard.press("Enter");
	await expect(prompt).toHaveValue(`A lighthouse at dusk${FAKE_REWRITE_SUFFIX}`);
	await expect(prompt).toBeFocused();
	await page.keyboard.press("Control+z");
	await expect(prompt).toHaveValue("A lighthouse at dusk");

	// Discard with Escape leaves the prompt alone.
	await tabTo(page, "Enhance");
	await page.keyboard.press("Enter");
	await expect(proposal).toBeVisible();
	await page.keyboard.press("Escape");
	await expect(proposal).toBeHidden();
	await expect(prompt).toHaveValue("A lighthouse at dusk");

	// Used, then generated: the generation keeps both prompts.
	await page.getByRole("button", { name: "Enhance" }).click();
	await proposal.getByRole("button", { name: "Use" }).click();
	const started = page.waitForResponse(
		(response) =>
			response.url().endsWith("/api/generations") && response.request().method() === "POST",
	);
	await page.getByRole("button", { name: "Generate" }).click();
	const { id } = (await (await started).json()) as { id: string };
	const answer = await page.request.get(`/api/generations/${id}`);
	const generation = GenerationSchema.parse(await answer.json());
	expect(generation.prompt).toBe(`A lighthouse at dusk${FAKE_REWRITE_SUFFIX}`);
	expect(generation.originalPrompt).toBe("A lighthouse at dusk");
	const asked = chat.requests().filter((request) => request.path === "/v1/chat/completions");
	expect(asked.length).toBe(3);
	expect(asked[0]?.body).toMatchObject({
		model: "gpt-4.1-mini",
		messages: [{ role: "system" }, { role: "user", content: "A lighthouse at dusk" }],
	});
});

test("the generator keeps the Enhance row's place before the settings load: nothing below moves", async ({
	page,
}) => {
	await signUp(page, uniqueEmail("enhance-shift"));
	// Every layout shift of the page's main part (the header's own come and go with the session).
	await page.addInitScript(() => {
		type Shift = PerformanceEntry & {
			value: number;
			hadRecentInput: boolean;
			sources?: { node?: Node | null }[];
		};
		const shifts: { value: number; nodes: string[] }[] = [];
		Object.assign(window, { layoutShifts: shifts });
		new PerformanceObserver((list) => {
			for (const entry of list.getEntries() as Shift[]) {
				const nodes = (entry.sources ?? [])
					.map((source) => source.node)
					.filter(
						(node): node is Element => node instanceof Element && node.closest("main") !== null,
					);
				if (!entry.hadRecentInput && nodes.length > 0) {
					shifts.push({
						value: entry.value,
						nodes: nodes.map((node) => node.outerHTML.slice(0, 120)),
					});
				}
			}
		}).observe({ type: "layout-shift", buffered: true });
	});
	// Tall enough that all the form below the settings is on screen: a shift off screen is none.
	await page.setViewportSize({ width: 1280, height: 2000 });
	// The models come late, as on a slow network: the settings' place is drawn first.
	await page.route("**/api/models", async (route) => {
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		await route.continue();
	});
	await page.goto("/");
	await expect(page.getByRole("button", { name: "Enhance", exact: true })).toBeVisible();
	await expect(page.getByRole("button", { name: "Advanced settings" })).toBeVisible();
	// Two frames, so a shift of the last render is reported.
	await page.evaluate(
		() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
	);
	const shifts = await page.evaluate(
		() => (window as unknown as { layoutShifts: unknown[] }).layoutShifts,
	);
	expect(shifts).toEqual([]);
});

test("the proposal fits a phone: nothing overflows, its buttons are in reach and work by touch", async ({
	browser,
}) => {
	const context = await browser.newContext({
		viewport: { width: 390, height: 844 },
		hasTouch: true,
		isMobile: true,
	});
	const page = await context.newPage();
	try {
		await signUp(page, uniqueEmail("enhance-phone"));
		const prompt = page.getByRole("textbox", { name: "Prompt" });
		await prompt.fill("A lighthouse at dusk");
		await page.getByRole("button", { name: "Enhance", exact: true }).tap();
		const proposal = page.getByRole("region", { name: "Enhanced prompt" });
		await expect(proposal).toContainText(`A lighthouse at dusk${FAKE_REWRITE_SUFFIX}`);
		// The original is shown beside the rewrite.
		await expect(proposal.getByRole("heading", { name: "Your prompt" })).toBeVisible();
		await expect(proposal.getByText("A lighthouse at dusk", { exact: true })).toBeVisible();
		const widths = await page.evaluate(() => ({
			scroll: document.documentElement.scrollWidth,
			viewport: window.innerWidth,
		}));
		expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
		const panel = await proposal.boundingBox();
		expect(panel?.x ?? -1).toBeGreaterThanOrEqual(0);
		expect((panel?.x ?? 0) + (panel?.width ?? 0)).toBeLessThanOrEqual(390);
		for (const name of ["Use", "Edit", "Discard"]) {
			const button = proposal.getByRole("button", { name, exact: true });
			const box = await button.boundingBox();
			// A finger's target: at least 44 px high and wide (WCAG 2.5.5).
			expect(box?.height ?? 0, name).toBeGreaterThanOrEqual(44);
			expect(box?.width ?? 0, name).toBeGreaterThanOrEqual(44);
			expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390, name).toBe(true);
		}
		await expectNoAxeViolations(page);

		await proposal.getByRole("button", { name: "Edit", exact: true }).tap();
		const editor = proposal.getByRole("textbox", { name: "Enhanced prompt" });
		await expect(editor).toBeVisible();
		await editor.fill("A lighthouse at dusk, in fog");
		await proposal.getByRole("button", { name: "Use", exact: true }).tap();
		await expect(prompt).toHaveValue("A lighthouse at dusk, in fog");
		await expect(proposal).toBeHidden();

		await page.getByRole("button", { name: "Enhance", exact: true }).tap();
		await expect(proposal).toBeVisible();
		await proposal.getByRole("button", { name: "Discard", exact: true }).tap();
		await expect(proposal).toBeHidden();
		await expect(prompt).toHaveValue("A lighthouse at dusk, in fog");
	} finally {
		await context.close();
	}
});
