import { expect, type Page, test } from "@playwright/test";
import { CreatedApiTokenSchema } from "../../src/shared/account/api-tokens";
import { E2E_BASE_URL } from "./support/constants";
import { expectNoAxeViolations, signUp, uniqueEmail } from "./support/journeys";

// A generation started elsewhere (a script with an API token) shows on the open history at once:
// "1 running" in the header and its running card. The offline engine takes six seconds, so a page
// that learned of it late would see it running briefly, or only finished.

/** The header's count and the card come with the history's reload: a couple of seconds at most. */
const CARD_SHOWN_WITHIN_MS = 2_500;
/** The header's count needs one answer of its poll: under a second, whenever it starts. */
const COUNT_SHOWN_WITHIN_MS = 1_200;
/** How long the server holds the header's poll when nothing changes (lib/generations/active-generations.ts). */
const LONG_POLL_MS = 25_000;

/** Signs up and makes an API token that may start generations, as a script's owner would. */
async function signUpWithToken(page: Page, name: string): Promise<string> {
	await signUp(page, uniqueEmail(name));
	const created = await page.request.post("/api/account/tokens", {
		data: { name: "Script", scopes: ["generate"], expiresInDays: 30 },
	});
	expect(created.status()).toBe(201);
	return CreatedApiTokenSchema.parse(await created.json()).token;
}

/** Starts a generation as a script does: the token, no cookie, no browser. */
async function startWithToken(token: string, prompt: string): Promise<void> {
	const started = await fetch(new URL("/api/generations", E2E_BASE_URL), {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
		body: JSON.stringify({ prompt, aspectRatio: "--ar 1:1" }),
	});
	expect(started.status).toBe(201);
}

/**
 * Opens the history once the header follows the person's generations: through the page's one
 * stream of them (decision 041), or, where the stream is refused, through its poll, once that has
 * had its first answer and waits for news.
 */
async function openHistory(page: Page, via: "stream" | "poll"): Promise<void> {
	if (via === "poll") {
		await page.route("**/api/generations/events", (route) => route.fulfill({ status: 404 }));
	}
	const isFollowing =
		via === "stream"
			? page.waitForResponse(
					(response) =>
						response.url().includes("/api/generations/events") && response.status() === 200,
				)
			: page.waitForRequest((request) => request.url().includes("/api/generations/active?after="));
	await page.goto("/generations");
	await expect(page.getByRole("heading", { level: 1, name: "Saved Generations" })).toBeVisible();
	await isFollowing;
	await expect(page.getByRole("link", { name: /running/ })).toHaveCount(0);
}

test("a generation started with an API token shows as running on the open history at once", async ({
	page,
}) => {
	const token = await signUpWithToken(page, "started-elsewhere");
	await openHistory(page, "stream");

	// The second comes once the stream has told of the first.
	for (const [index, prompt] of ["A heron started by a script", "A second heron"].entries()) {
		await startWithToken(token, prompt);
		await expect(page.getByRole("link", { name: `${index + 1} running` })).toBeVisible({
			timeout: CARD_SHOWN_WITHIN_MS,
		});
		const card = page.getByRole("article", { name: prompt });
		await expect(card.getByRole("progressbar", { name: "Generation progress" })).toBeVisible({
			timeout: CARD_SHOWN_WITHIN_MS,
		});
	}
	await expectNoAxeViolations(page);
});

test("where the page has no stream, a generation started just as the header's poll has waited its whole time shows at once", async ({
	page,
}) => {
	test.setTimeout(LONG_POLL_MS + 30_000);
	const token = await signUpWithToken(page, "started-after-a-wait");
	await openHistory(page, "poll");
	// The poll that waits: asked for with the version of the answer before it.
	const waitedOut = page.waitForResponse(
		(response) =>
			response.url().includes("/api/generations/active?after=") && response.status() === 200,
		{ timeout: LONG_POLL_MS + 10_000 },
	);
	// Nothing of this person changes meanwhile: the poll ends with the server's wait, no news.
	await waitedOut;

	await startWithToken(token, "A kite started as the poll came back");
	await expect(page.getByRole("link", { name: "1 running" })).toBeVisible({
		timeout: COUNT_SHOWN_WITHIN_MS,
	});
	const card = page.getByRole("article", { name: "A kite started as the poll came back" });
	await expect(card.getByRole("progressbar", { name: "Generation progress" })).toBeVisible({
		timeout: CARD_SHOWN_WITHIN_MS,
	});
	await expectNoAxeViolations(page);
});
