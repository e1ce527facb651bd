import {
	type APIRequestContext,
	type Browser,
	type BrowserContext,
	type BrowserContextOptions,
	expect,
	type Page,
} from "@playwright/test";
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_BASE_URL, E2E_PASSWORD } from "./constants";

// What the history's journeys share: accounts and generations made through the real API, and
// ways to find cards in a list that draws only the cards near the viewport.

/** A generation to make: its prompt and ratio, and the model and settings when not the default's. */
export type Seed = {
	prompt: string;
	aspectRatio: string;
	model?: string;
	count?: number;
	seed?: number;
	negativePrompt?: string;
};

export function todayLabel(): string {
	// The browser and this process share the machine's time zone.
	return new Intl.DateTimeFormat("en-US", {
		month: "short",
		day: "numeric",
		year: "numeric",
	}).format(new Date());
}

export function isListRequest(url: URL): boolean {
	return url.pathname === "/api/generations";
}

/** Signs up through the API (or signs in, when the account exists) and keeps the session cookie. */
async function signUpThroughApi(
	request: APIRequestContext,
	email: string,
	password = E2E_PASSWORD,
): Promise<void> {
	const headers = { origin: E2E_BASE_URL };
	const signUp = await request.post("/api/auth/sign-up/email", {
		data: { email, password, name: email.split("@")[0] },
		headers,
	});
	if (signUp.ok()) return;
	const signIn = await request.post("/api/auth/sign-in/email", {
		data: { email, password },
		headers,
	});
	expect(signIn.ok(), `sign-in of ${email}: ${await signIn.text()}`).toBe(true);
}

/** Starts a generation, waiting for a free slot when the person's quota is full. */
export async function startGeneration(request: APIRequestContext, seed: Seed): Promise<string> {
	for (let attempt = 0; attempt < 200; attempt++) {
		const response = await request.post("/api/generations", {
			data: seed,
			headers: { origin: E2E_BASE_URL },
		});
		if (response.status() === 201) return ((await response.json()) as { id: string }).id;
		expect(response.status(), await response.text()).toBe(429);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error("the quota never freed up");
}

async function waitUntilFinished(request: APIRequestContext, id: string): Promise<void> {
	for (let attempt = 0; attempt < 60; attempt++) {
		const response = await request.get(`/api/generations/${id}/status?wait=5000`);
		const body = (await response.json()) as { status: string };
		if (body.status === "completed") return;
		expect(body.status).not.toBe("failed");
	}
	throw new Error(`generation ${id} did not finish`);
}

/** Creates the generations in order, through the real API and the local engine, and waits for all. */
export async function createGenerations(
	request: APIRequestContext,
	seeds: Seed[],
): Promise<string[]> {
	const ids: string[] = [];
	for (const seed of seeds) ids.push(await startGeneration(request, seed));
	await Promise.all(ids.map((id) => waitUntilFinished(request, id)));
	return ids;
}

/** A browser context signed in as `email`, signed up first when the account is new. */
export async function openAccount(
	browser: Browser,
	email: string,
	password = E2E_PASSWORD,
	/** The browser's own settings, like the `locale` whose Accept-Language it sends. */
	options: BrowserContextOptions = {},
): Promise<BrowserContext> {
	const context = await browser.newContext({ ...options, baseURL: E2E_BASE_URL });
	await signUpThroughApi(context.request, email, password);
	return context;
}

/**
 * A browser context signed in as the administrator, whose account the global setup claimed
 * (support/administrator.ts); the journeys' one way to act as them outside a page's forms.
 */
export async function openAdministratorAccount(browser: Browser): Promise<BrowserContext> {
	const context = await browser.newContext({ baseURL: E2E_BASE_URL });
	const signIn = await context.request.post("/api/auth/sign-in/email", {
		data: { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD },
		headers: { origin: E2E_BASE_URL },
	});
	expect(signIn.ok(), `the administrator's sign-in: ${await signIn.text()}`).toBe(true);
	return context;
}

/**
 * The card of `prompt`, scrolled into view: the history keeps only the cards near the viewport in
 * the page, so a card further down exists only once the person scrolls to it. In the
 * administrator's history `owner` picks the card of one person when others used the same prompt
 * (journeys running beside each other share the server).
 */
export async function revealCard(page: Page, prompt: string, options: { owner?: string } = {}) {
	let card = page.getByRole("article", { name: prompt });
	if (options.owner !== undefined) {
		card = card.filter({ has: page.getByText(options.owner, { exact: true }) });
	}
	await page.evaluate(() => window.scrollTo(0, 0));
	for (let step = 0; step < 60 && (await card.count()) === 0; step++) {
		await page.mouse.wheel(0, 400);
		await page.waitForTimeout(50);
	}
	await card.scrollIntoViewIfNeeded();
	return card;
}

/**
 * What a card says while its generation is unfinished: "Queued" or "Generating…", or the progress
 * the server reports ("Next in line", "2 ahead of you", "Starting", "Step 3 of 4", "Saving images").
 */
export const IN_PROGRESS_LABEL =
	/^(Queued|Generating…|Generating|Waiting in the queue|Next in line|\d+ ahead of you|Starting|Step \d+ of \d+|Saving images)$/;
