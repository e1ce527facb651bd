import { type APIRequestContext, expect, test } from "@playwright/test";
import { removeDataDir, startAppServer } from "./support/app-server";
import { E2E_BASE_URL, E2E_PORT } from "./support/constants";
import {
	createGenerations,
	openAccount,
	openAdministratorAccount,
	revealCard,
} from "./support/history";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// Sharing: a person shares a generation from its preview, a visitor in a fresh browser opens the
// link signed out and reports it, the administrator hides it, and the link says so.

test("a shared generation opens signed out, is reported, and says so once the administrator hides it", async ({
	browser,
}) => {
	const email = uniqueEmail("sol");
	const prompt = `Sol's paper lantern ${Date.now()}`;
	const person = await openAccount(browser, email);
	await createGenerations(person.request, [{ prompt, aspectRatio: "--ar 1:1" }]);

	const page = await person.newPage();
	await page.goto("/generations");
	const card = await revealCard(page, prompt);
	await card.getByRole("button", { name: "Preview image 1 of 4" }).click();
	const preview = page.getByRole("dialog", { name: "Image 1 of 4" });
	await preview.getByRole("button", { name: "Share" }).click();
	const share = page.getByRole("dialog", { name: "Share" });
	await expect(share).toBeVisible();
	await share.getByRole("combobox", { name: "Expires" }).selectOption("1d");
	await expectNoAxeViolations(page);
	await share.getByRole("button", { name: "Create link" }).click();
	const link = share.getByRole("textbox", { name: /Your link/ });
	await expect(link).toHaveValue(new RegExp(`^${E2E_BASE_URL}/s/[A-Za-z0-9_-]{43}$`));
	const url = await link.inputValue();
	await share.getByRole("button", { name: "Done" }).click();

	// A visitor in a fresh browser, signed out: the page, without the app's script.
	const visitorContext = await browser.newContext();
	const visitor = await visitorContext.newPage();
	const scripts: string[] = [];
	visitor.on("request", (request) => {
		if (request.resourceType() === "script") scripts.push(request.url());
	});
	const response = await visitor.goto(url);
	expect(response?.status()).toBe(200);
	expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
	await expect(visitor.getByRole("heading", { level: 1 })).toBeVisible();
	await expect(visitor.getByText(prompt).first()).toBeVisible();
	expect(scripts.filter((script) => script.includes("/assets/"))).toEqual([]);
	await expectNoAxeViolations(visitor);

	// The preview keys: → to the next image, Escape back to all of them.
	await visitor.getByRole("link", { name: /Image 1 of 4/ }).click();
	await expect(visitor).toHaveURL(/\?image=0$/);
	await visitor.keyboard.press("ArrowRight");
	await expect(visitor).toHaveURL(/\?image=1$/);
	await visitor.keyboard.press("Escape");
	await expect(visitor).toHaveURL(/\/s\/[A-Za-z0-9_-]{43}$/);

	await visitor.getByText("Report this page").click();
	await visitor.getByRole("textbox", { name: "What is wrong with it?" }).fill("Not for children");
	await visitor.getByRole("button", { name: "Report" }).click();
	await expect(visitor.getByRole("status")).toHaveText(
		"Thank you: your report was sent to the administrator.",
	);

	// The administrator reads the report and hides the link.
	const admin = await openAdministratorAccount(browser);
	const adminPage = await admin.newPage();
	await adminPage.setViewportSize({ width: 1440, height: 900 });
	await adminPage.goto("/admin/shares");
	await expect(adminPage.getByRole("heading", { level: 1, name: "Shared links" })).toBeVisible();
	const report = adminPage
		.getByRole("list", { name: "Reports" })
		.getByRole("listitem")
		.filter({ hasText: prompt });
	await expect(report.getByText("“Not for children”")).toBeVisible();
	await expectNoAxeViolations(adminPage);
	await report.getByRole("button", { name: /^Hide/ }).click();
	await expect(report.getByText("Hidden")).toBeVisible();

	const hidden = await visitor.goto(url);
	expect(hidden?.status()).toBe(451);
	await expect(visitor.getByRole("heading", { name: "This page was taken down" })).toBeVisible();
	await expectNoAxeViolations(visitor);

	// The person's account page lists the link, taken down.
	await page.goto("/account");
	const links = page.getByRole("list", { name: "Your shared links" });
	await expect(links.getByText(`All images of “${prompt}”`)).toBeVisible();
	await expect(links.getByText("Taken down")).toBeVisible();

	await visitorContext.close();
	await admin.close();
	await person.close();
});

test("a board shared from its page opens signed out and pages through its images; a card's menu shares a generation", async ({
	browser,
}) => {
	const email = uniqueEmail("ines");
	const stamp = Date.now();
	const prompts = [`Ines's kite at noon ${stamp}`, `Ines's kite at dusk ${stamp}`];
	const person = await openAccount(browser, email);
	const ids = await createGenerations(
		person.request,
		prompts.map((prompt) => ({ prompt, aspectRatio: "--ar 1:1" })),
	);
	const page = await person.newPage();
	await page.goto("/boards");
	const origin = new URL(page.url()).origin;
	const made = await person.request.post("/api/boards", {
		data: { name: `Kites ${stamp}` },
		headers: { origin },
	});
	expect(made.status()).toBe(201);
	const board = (await made.json()) as { id: string };
	const put = await person.request.post(`/api/boards/${board.id}/generations`, {
		data: { ids },
		headers: { origin },
	});
	expect(put.status()).toBe(200);

	// Share board, on the board's page.
	await page.goto(`/boards/${board.id}`);
	await page.getByRole("button", { name: "Share board" }).click();
	const share = page.getByRole("dialog", { name: "Share board" });
	await expect(share).toBeVisible();
	await expectNoAxeViolations(page);
	await share.getByRole("button", { name: "Create link" }).click();
	const link = share.getByRole("textbox", { name: /Your link/ });
	await expect(link).toHaveValue(new RegExp(`^${E2E_BASE_URL}/s/[A-Za-z0-9_-]{43}$`));
	const url = await link.inputValue();
	await share.getByRole("button", { name: "Done" }).click();

	// A visitor in a fresh browser, signed out: the board's page, newest first, then its preview
	// moving from one generation's images on to the next's.
	const visitorContext = await browser.newContext();
	const visitor = await visitorContext.newPage();
	const response = await visitor.goto(url);
	expect(response?.status()).toBe(200);
	await expect(visitor.getByRole("heading", { level: 1, name: `Kites ${stamp}` })).toBeVisible();
	const images = visitor.getByRole("listitem").getByRole("img");
	await expect(images).toHaveCount(8);
	await expect(images.first()).toHaveAttribute("alt", `Image 1 of 8: ${prompts[1]}`);
	await expectNoAxeViolations(visitor);
	await visitor.getByRole("link", { name: /Image 4 of 8/ }).click();
	await expect(visitor).toHaveURL(/\?image=3$/);
	await visitor.keyboard.press("ArrowRight");
	await expect(visitor).toHaveURL(/\?image=4$/);
	await expect(visitor.getByRole("img")).toHaveAttribute("alt", `Image 5 of 8: ${prompts[0]}`);
	await visitor.getByRole("link", { name: "Next →" }).click();
	await expect(visitor).toHaveURL(/\?image=5$/);
	await expectNoAxeViolations(visitor);
	await visitor.keyboard.press("Escape");
	await expect(visitor).toHaveURL(/\/s\/[A-Za-z0-9_-]{43}$/);

	// Share in a card's menu, in the history.
	await page.goto("/generations");
	const card = await revealCard(page, prompts[0] ?? "");
	await card.getByRole("button", { name: "More actions" }).click();
	await page.getByRole("menuitem", { name: "Share…" }).click();
	const cardShare = page.getByRole("dialog", { name: "Share" });
	await cardShare.getByRole("button", { name: "Create link" }).click();
	await expect(cardShare.getByRole("textbox", { name: /Your link/ })).toHaveValue(
		new RegExp(`^${E2E_BASE_URL}/s/[A-Za-z0-9_-]{43}$`),
	);
	await cardShare.getByRole("button", { name: "Done" }).click();

	await page.goto("/account");
	const links = page.getByRole("list", { name: "Your shared links" });
	await expect(links.getByText(`The board “Kites ${stamp}”`)).toBeVisible();
	await expect(links.getByText(`All images of “${prompts[0]}”`)).toBeVisible();

	await visitorContext.close();
	await person.close();
});

/** A link to a board made through the API, its address as the answer gives it once. */
async function shareBoardThroughApi(request: APIRequestContext, boardId: string, origin: string) {
	const made = await request.post("/api/shares", {
		data: { target: { boardId }, expires: "1d", originals: false, showPrompt: true },
		headers: { origin },
	});
	expect(made.status(), await made.text()).toBe(201);
	return ((await made.json()) as { url: string }).url;
}

/** A board of `ids` made through the API. */
async function makeBoardThroughApi(
	request: APIRequestContext,
	name: string,
	ids: readonly string[],
	origin: string,
) {
	const made = await request.post("/api/boards", { data: { name }, headers: { origin } });
	expect(made.status()).toBe(201);
	const board = (await made.json()) as { id: string };
	for (let first = 0; first < ids.length; first += 100) {
		const put = await request.post(`/api/boards/${board.id}/generations`, {
			data: { ids: ids.slice(first, first + 100) },
			headers: { origin },
		});
		expect(put.status()).toBe(200);
	}
	return board;
}

test("a shared board opens signed out, is reported, and says so (451) once the administrator hides it", async ({
	browser,
}) => {
	const stamp = Date.now();
	const prompt = `Omar's harbour at dawn ${stamp}`;
	const boardName = `Harbours ${stamp}`;
	const person = await openAccount(browser, uniqueEmail("omar"));
	const ids = await createGenerations(person.request, [
		{ prompt, aspectRatio: "--ar 1:1", count: 1 },
	]);
	const board = await makeBoardThroughApi(person.request, boardName, ids, E2E_BASE_URL);
	const url = await shareBoardThroughApi(person.request, board.id, E2E_BASE_URL);

	// A visitor in a fresh browser, signed out.
	const visitorContext = await browser.newContext();
	const visitor = await visitorContext.newPage();
	const response = await visitor.goto(url);
	expect(response?.status()).toBe(200);
	await expect(visitor.getByRole("heading", { level: 1, name: boardName })).toBeVisible();
	await expect(visitor.getByRole("listitem").getByRole("img")).toHaveAttribute(
		"alt",
		`Image: ${prompt}`,
	);
	await expectNoAxeViolations(visitor);
	await visitor.getByText("Report this page").click();
	await visitor
		.getByRole("textbox", { name: "What is wrong with it?" })
		.fill("Someone else's photo");
	await visitor.getByRole("button", { name: "Report" }).click();
	await expect(visitor.getByRole("status")).toHaveText(
		"Thank you: your report was sent to the administrator.",
	);

	// The administrator finds the board's report in the queue and hides the link.
	const admin = await openAdministratorAccount(browser);
	const adminPage = await admin.newPage();
	await adminPage.setViewportSize({ width: 1440, height: 900 });
	await adminPage.goto("/admin/shares");
	const report = adminPage
		.getByRole("list", { name: "Reports" })
		.getByRole("listitem")
		.filter({ hasText: `The board “${boardName}”` });
	await expect(report.getByText("“Someone else's photo”")).toBeVisible();
	await report.getByRole("button", { name: /^Hide/ }).click();
	await expect(report.getByText("Hidden")).toBeVisible();

	const hidden = await visitor.goto(url);
	expect(hidden?.status()).toBe(451);
	await expect(visitor.getByRole("heading", { name: "This page was taken down" })).toBeVisible();
	await expectNoAxeViolations(visitor);
	// Its images are taken down with it.
	const image = await visitorContext.request.get(`${url}/generations/${ids[0]}/images/0/display`);
	expect(image.status()).toBe(451);

	await visitorContext.close();
	await admin.close();
	await person.close();
});

test("a shared board of two pages is paged through signed out with JavaScript off: Older, Newer, and the preview across a page's end", async ({
	browser,
}) => {
	// A server of its own to start, and 25 generations to draw, on a busy machine.
	test.setTimeout(400_000);
	// A server of its own, whose offline engine draws at once and takes a batch of 25 together.
	const port = E2E_PORT + 17;
	const origin = `http://localhost:${port}`;
	const server = await startAppServer({
		port,
		env: {
			AUTH_RATE_LIMIT_ENABLED: "false",
			LOCAL_ENGINE_DELAY_MS: "0",
			MAX_ACTIVE_GENERATIONS_PER_USER: "25",
			MAX_BATCH_GENERATIONS: "25",
		},
	});
	const person = await browser.newContext({ baseURL: origin });
	try {
		const signUp = await person.request.post("/api/auth/sign-up/email", {
			data: { email: uniqueEmail("pages"), password: "correct horse battery", name: "pages" },
			headers: { origin },
		});
		expect(signUp.ok()).toBe(true);
		// One batch of 25 (5 × 5 choices): one more than a shared page holds.
		const started = await person.request.post("/api/generations", {
			data: {
				prompt: "a {red|green|blue|white|black} kite over {hills|sea|town|fields|dunes}",
				aspectRatio: "--ar 1:1",
				count: 1,
				variations: "all",
			},
			headers: { origin },
		});
		expect(started.status(), await started.text()).toBe(201);
		const batch = (await started.json()) as { batchId: string; generations: { id: string }[] };
		expect(batch.generations).toHaveLength(25);
		await expect(async () => {
			const listed = await person.request.get(`/api/generations?batch=${batch.batchId}&limit=50`);
			const page = (await listed.json()) as { items: { status: string }[] };
			expect(page.items.filter((item) => item.status === "completed")).toHaveLength(25);
		}).toPass({ timeout: 200_000 });
		const ids = batch.generations.map((generation) => generation.id);
		const board = await makeBoardThroughApi(person.request, "Kites", ids, origin);
		const url = await shareBoardThroughApi(person.request, board.id, origin);

		// Axe needs a script in the page: this visitor runs none (the pages' axe runs are above).
		const visitorContext = await browser.newContext({ javaScriptEnabled: false });
		const visitor = await visitorContext.newPage();
		try {
			expect((await visitor.goto(url))?.status()).toBe(200);
			const images = visitor.getByRole("listitem").getByRole("img");
			await expect(images).toHaveCount(24);
			const newest = await images.first().getAttribute("alt");
			const lastOfFirst = await images.nth(23).getAttribute("alt");
			await expect(visitor.getByRole("link", { name: /Newer/ })).toHaveCount(0);

			await visitor.getByRole("link", { name: /Older/ }).click();
			await expect(images).toHaveCount(1);
			const oldest = await images.first().getAttribute("alt");
			await expect(visitor.getByRole("link", { name: /Older/ })).toHaveCount(0);

			await visitor.getByRole("link", { name: /Newer/ }).click();
			await expect(images).toHaveCount(24);
			await expect(images.first()).toHaveAttribute("alt", newest ?? "");

			// The preview's → at the page's last image opens the older page's first; ← comes back.
			await visitor.getByRole("link", { name: /Image 24 of 24/ }).click();
			await expect(visitor.getByRole("img")).toHaveAttribute("alt", lastOfFirst ?? "");
			await visitor.getByRole("link", { name: "Next →" }).click();
			await expect(visitor.getByRole("img")).toHaveAttribute("alt", oldest ?? "");
			await visitor.getByRole("link", { name: "← Previous" }).click();
			await expect(visitor.getByRole("img")).toHaveAttribute("alt", lastOfFirst ?? "");
		} finally {
			await visitorContext.close();
		}
	} finally {
		await person.close();
		await server.stop();
		await removeDataDir(server.dataDir);
	}
});
