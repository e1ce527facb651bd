import { expect, type Page, test } from "@playwright/test";
import {
	FAKE_OPENAI_KEY,
	type FakeOpenAi,
	startFakeOpenAi,
} from "../../src/server/testing/fakes/openai";
import { FAKE_REWRITE_SUFFIX } from "../../src/server/testing/fakes/openai-chat";
import { GenerationSchema } from "../../src/shared/generations";
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
