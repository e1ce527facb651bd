import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "./support/constants";
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
