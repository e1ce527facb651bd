import { readFile } from "node:fs/promises";
import {
	type Browser,
	type BrowserContext,
	type Download,
	expect,
	type Page,
	test,
} from "@playwright/test";
import { E2E_ADMIN_EMAIL } from "./support/constants";
import {
	createGenerations,
	IN_PROGRESS_LABEL,
	openAccount,
	openAdministratorAccount,
	revealCard,
	type Seed,
	startGeneration,
} from "./support/history";
import { expectNoAxeViolations, uniqueEmail, waitForTransitions } from "./support/journeys";

// The history's tools against the real server: search and filters in the address, favourites,
// the three downloads, reuse, selection with bulk delete, the preview's keys, and the
// administrator's filter by person and audit log. Each journey has an account of its own.

// Shared with generations.spec.ts and accounts.spec.ts: whichever journey runs first signs the
// administrator up, the others sign in.

// Oldest first; the newest leads the history.
const SEEDS: Seed[] = [
	{ prompt: "Koi pond in a Japanese garden, autumn leaves", aspectRatio: "--ar 1:1" },
	{ prompt: "A lighthouse on a cliff at dusk, crashing waves", aspectRatio: "--ar 16:9" },
	{ prompt: "Neon city at night, rain on the streets", aspectRatio: "--ar 9:16" },
	{ prompt: "A second lighthouse in fog, at night", aspectRatio: "--ar 16:9" },
];

const SUMMARY = /^[\d,]+ generations? (match(es)? )?· [\d,]+ today$/;

async function openSeededHistory(browser: Browser, name: string, seeds = SEEDS) {
	const context = await openAccount(browser, uniqueEmail(name));
	await createGenerations(context.request, seeds);
	const page = await context.newPage();
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto("/generations");
	await expect(page.getByText(`${seeds.length} generations · ${seeds.length} today`)).toBeVisible();
	return { context, page };
}

function card(page: Page, prompt: string) {
	return page.getByRole("article", { name: prompt });
}

function readCardPrompts(page: Page): Promise<string[]> {
	return page
		.locator("article[data-generation-id] p[id]")
		.evaluateAll((prompts) => prompts.map((prompt) => prompt.textContent ?? ""));
}

async function openCardMenu(page: Page, prompt: string) {
	await card(page, prompt).getByRole("button", { name: "More actions" }).click();
	const menu = page.getByRole("menu");
	await expect(menu).toBeVisible();
	return menu;
}

/** The names of the files in a ZIP, read from its central directory. */
function listZipEntries(zip: Buffer): string[] {
	const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
	expect(end, "a ZIP's end record").toBeGreaterThanOrEqual(0);
	const count = zip.readUInt16LE(end + 10);
	let offset = zip.readUInt32LE(end + 16);
	const names: string[] = [];
	for (let index = 0; index < count; index++) {
		expect(zip.readUInt32LE(offset)).toBe(0x02014b50);
		const nameLength = zip.readUInt16LE(offset + 28);
		const extraLength = zip.readUInt16LE(offset + 30);
		const commentLength = zip.readUInt16LE(offset + 32);
		names.push(zip.subarray(offset + 46, offset + 46 + nameLength).toString("utf8"));
		offset += 46 + nameLength + extraLength + commentLength;
	}
	return names.filter((name) => !name.endsWith("/")).sort();
}

async function readDownload(download: Download): Promise<Buffer> {
	const file = await download.path();
	return readFile(file);
}

test("search by prompt runs on the server as one types, lives in the address, and says when nothing matches", async ({
	browser,
}) => {
	const { context, page } = await openSeededHistory(browser, "sam");
	const search = page.getByRole("searchbox", { name: "Search prompts" });

	await search.pressSequentially("lighthouse", { delay: 30 });
	await expect(page).toHaveURL(/\/generations\?q=lighthouse$/);
	await expect(page.getByText("2 generations match · 2 today")).toBeVisible();
	expect(await readCardPrompts(page)).toEqual([SEEDS[3]?.prompt, SEEDS[1]?.prompt]);
	await expectNoAxeViolations(page);

	// The address keeps it: a reload, Back and Forward.
	await page.reload();
	await expect(page.getByText("2 generations match · 2 today")).toBeVisible();
	await expect(search).toHaveValue("lighthouse");
	await page.goBack();
	await expect(page).toHaveURL(/\/generations$/);
	await expect(page.getByText("4 generations · 4 today")).toBeVisible();
	await expect(search).toHaveValue("");
	await page.goForward();
	await expect(page.getByText("2 generations match · 2 today")).toBeVisible();
	await expect(search).toHaveValue("lighthouse");

	// Combined with the ratio filter, also in the address.
	await page
		.getByRole("combobox", { name: "Aspect ratio" })
		.selectOption({ label: "16:9 · Landscape (widescreen)" });
	await search.fill("night");
	await expect(page.getByText("1 generation matches · 1 today")).toBeVisible();
	await expect(page).toHaveURL(/ratio=16%3A9/);
	expect(await readCardPrompts(page)).toEqual([SEEDS[3]?.prompt]);

	await search.fill("zebra");
	await expect(page.getByRole("heading", { name: "No generations match" })).toBeVisible();
	await expectNoAxeViolations(page);
	await page.getByRole("button", { name: "Clear search and filters" }).click();
	await expect(page.getByText("4 generations · 4 today")).toBeVisible();
	await expect(page).toHaveURL(/\/generations$/);
	await context.close();
});

test("a star is kept on the server, shown at once, lists the favourites, and is put back when refused", async ({
	browser,
}) => {
	const { context, page } = await openSeededHistory(browser, "fay");
	const koi = SEEDS[0]?.prompt ?? "";
	const star = card(page, koi).getByRole("button", { name: "Favourite" });
	await expect(star).toHaveAttribute("aria-pressed", "false");

	const saved = page.waitForResponse(
		(response) => response.request().method() === "PUT" && response.status() === 200,
	);
	await star.click();
	await expect(star).toHaveAttribute("aria-pressed", "true");
	await saved;

	await page.reload();
	await expect(star).toHaveAttribute("aria-pressed", "true");
	await page.getByRole("button", { name: "Favourites only" }).click();
	await expect(page).toHaveURL(/favorites=true/);
	await expect(page.getByText("1 generation matches · 1 today")).toBeVisible();
	expect(await readCardPrompts(page)).toEqual([koi]);
	await expectNoAxeViolations(page);
	await page.getByRole("button", { name: "Favourites only" }).click();
	await expect(page.getByText("4 generations · 4 today")).toBeVisible();

	// The server refuses (here: the session has ended): the star goes back, and a toast says so.
	const other = card(page, SEEDS[2]?.prompt ?? "").getByRole("button", { name: "Favourite" });
	await context.clearCookies();
	await other.click();
	await expect(page.getByText("Failed to update the favourite. Please try again.")).toBeVisible();
	await expect(other).toHaveAttribute("aria-pressed", "false");
	await context.close();
});

test("downloads: an image's original from the preview, a generation's ZIP, and a selection's ZIP", async ({
	browser,
}) => {
	const { context, page } = await openSeededHistory(browser, "dora");
	const lighthouse = SEEDS[1]?.prompt ?? "";

	await card(page, lighthouse).getByRole("button", { name: "Preview image 2 of 4" }).click();
	const dialog = page.getByRole("dialog", { name: "Image 2 of 4" });
	let downloading = page.waitForEvent("download");
	await dialog.getByRole("link", { name: "Download image" }).click();
	let download = await downloading;
	// Named by the server's Content-Disposition: the prompt's slug and the image's number.
	expect(download.suggestedFilename()).toMatch(
		/^a-lighthouse-on-a-cliff-at-dusk[a-z0-9-]*-2\.(png|webp|jpe?g)$/,
	);
	// The original itself, as the offline engine made it (a JPEG), not the thumbnail (WebP).
	const image = await readDownload(download);
	const isJpeg = image[0] === 0xff && image[1] === 0xd8;
	const isPng = image.subarray(1, 4).toString("latin1") === "PNG";
	expect(isJpeg || isPng).toBe(true);
	await page.keyboard.press("Escape");
	await expect(dialog).toHaveCount(0);

	const menu = await openCardMenu(page, lighthouse);
	downloading = page.waitForEvent("download");
	await menu.getByRole("menuitem", { name: "Download all (ZIP)" }).click();
	download = await downloading;
	expect(download.suggestedFilename()).toMatch(/\.zip$/);
	// The four originals, named from the prompt, and the generation's details.
	const single = listZipEntries(await readDownload(download));
	expect(single).toHaveLength(5);
	expect(
		single.filter((name) => /^a-lighthouse-on-a-cliff[a-z0-9-]*-[1-4]\.jpg$/.test(name)),
	).toHaveLength(4);
	expect(single).toContain("generation.json");

	await page.getByRole("button", { name: "Select", exact: true }).click();
	await card(page, SEEDS[0]?.prompt ?? "")
		.getByRole("checkbox")
		.check();
	await card(page, SEEDS[2]?.prompt ?? "")
		.getByRole("checkbox")
		.check();
	const bar = page.getByRole("region", { name: "Selection" });
	await expect(bar).toContainText("2 selected");
	await expectNoAxeViolations(page);
	downloading = page.waitForEvent("download");
	await bar.getByRole("button", { name: "Download (ZIP)" }).click();
	download = await downloading;
	expect(download.suggestedFilename()).toMatch(/\.zip$/);
	// One folder per generation, each with its four originals and its details.
	const selection = listZipEntries(await readDownload(download));
	expect(selection.filter((name) => name.endsWith(".jpg"))).toHaveLength(8);
	expect(selection.filter((name) => name.endsWith("/generation.json"))).toHaveLength(2);
	expect(new Set(selection.map((name) => name.split("/")[0])).size).toBe(2);
	// Still on the history: the form's answer went to a hidden frame.
	await expect(page).toHaveURL(/\/generations$/);
	await context.close();
});

test("Use prompt opens the generator filled in; Rerun starts the same generation at once; Copy prompt copies", async ({
	browser,
}) => {
	const seeds = SEEDS.slice(0, 2);
	const { context, page } = await openSeededHistory(browser, "rey", seeds);
	await context.grantPermissions(["clipboard-read", "clipboard-write"]);
	const lighthouse = seeds[1]?.prompt ?? "";

	await (await openCardMenu(page, lighthouse))
		.getByRole("menuitem", { name: "Use prompt" })
		.click();
	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByRole("textbox", { name: "Prompt" })).toHaveValue(lighthouse);
	await expect(page.getByRole("combobox", { name: "Aspect ratio" })).toContainText(
		"Landscape (widescreen)",
	);
	await expectNoAxeViolations(page);
	await page.goBack();

	await (await openCardMenu(page, lighthouse))
		.getByRole("menuitem", { name: "Copy prompt" })
		.click();
	await expect(page.getByText("Prompt copied")).toBeVisible();
	expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(lighthouse);

	const created = page.waitForResponse(
		(response) => response.request().method() === "POST" && response.status() === 201,
	);
	await (await openCardMenu(page, lighthouse)).getByRole("menuitem", { name: "Rerun" }).click();
	await created;
	await expect(page.getByText("Rerun started")).toBeVisible();
	await expect(page.getByText("3 generations · 3 today")).toBeVisible();
	const newest = page.getByRole("article").first();
	await expect(newest).toHaveAccessibleName(lighthouse);
	await expect(newest.getByText(IN_PROGRESS_LABEL)).toBeVisible();
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	await expect(newest.getByRole("button", { name: /^Preview image/ })).toHaveCount(4, {
		timeout: 30_000,
	});

	// The person's quota applies: with three running, a rerun is refused with the server's words.
	for (let index = 0; index < 3; index++) {
		await startGeneration(context.request, { prompt: `Busy ${index}`, aspectRatio: "--ar 1:1" });
	}
	await (await openCardMenu(page, seeds[0]?.prompt ?? ""))
		.getByRole("menuitem", { name: "Rerun" })
		.click();
	await expect(
		page.getByText(
			"You already have 3 generations in progress (the limit is 3). Please wait for one to finish.",
		),
	).toBeVisible();
	await context.close();
});

test("selection mode: a range with Shift+click, Select all shown, and one bulk delete", async ({
	browser,
}) => {
	const { context, page } = await openSeededHistory(browser, "sel");
	await page.getByRole("button", { name: "Select", exact: true }).click();
	const bar = page.getByRole("region", { name: "Selection" });
	const [newest, , , oldest] = [...SEEDS].reverse().map((seed) => seed.prompt);

	await card(page, newest ?? "")
		.getByRole("checkbox")
		.click();
	await card(page, SEEDS[1]?.prompt ?? "")
		.getByRole("checkbox")
		.click({ modifiers: ["Shift"] });
	await expect(bar).toContainText("3 selected");
	await expect(card(page, oldest ?? "").getByRole("checkbox")).not.toBeChecked();
	await bar.getByRole("button", { name: "Select all shown" }).click();
	await expect(bar).toContainText("4 selected");
	await card(page, oldest ?? "")
		.getByRole("checkbox")
		.click();
	await expect(bar).toContainText("3 selected");

	// To the Trash: nothing is asked, the toast offers Undo.
	await bar.getByRole("button", { name: "Delete" }).click();
	await expect(page.getByText("3 generations deleted")).toBeVisible();
	await expectNoAxeViolations(page);
	await expect(page.getByText("1 generation · 1 today")).toBeVisible();
	expect(await readCardPrompts(page)).toEqual([oldest]);

	await page.reload();
	await expect(page.getByText("1 generation · 1 today")).toBeVisible();
	expect(await readCardPrompts(page)).toEqual([oldest]);
	await context.close();
});

test("the preview's arrow keys move through the images and on to the next and previous generation", async ({
	browser,
}) => {
	const seeds = SEEDS.slice(0, 2);
	const { context, page } = await openSeededHistory(browser, "ari", seeds);
	const [older, newer] = seeds.map((seed) => seed.prompt);
	const dialog = page.getByRole("dialog");

	await card(page, newer ?? "")
		.getByRole("button", { name: "Preview image 3 of 4" })
		.click();
	await expect(dialog).toHaveAccessibleName("Image 3 of 4");
	await page.keyboard.press("ArrowRight");
	await expect(dialog).toHaveAccessibleName("Image 4 of 4");
	await page.keyboard.press("ArrowRight");
	await expect(dialog).toHaveAccessibleName("Image 1 of 4");
	await expect(dialog).toHaveAccessibleDescription(older ?? "");
	await expect
		.poll(() =>
			dialog
				.getByRole("img", { name: new RegExp(older ?? "") })
				.evaluate((element) => (element as HTMLImageElement).naturalWidth),
		)
		.toBeGreaterThan(0);
	await expectNoAxeViolations(page);
	await page.keyboard.press("ArrowLeft");
	await expect(dialog).toHaveAccessibleName("Image 4 of 4");
	await expect(dialog).toHaveAccessibleDescription(newer ?? "");
	await expect(dialog.getByRole("button", { name: "Favourite" })).toBeVisible();
	await expect(dialog.getByRole("link", { name: "Use prompt" })).toBeVisible();

	await page.keyboard.press("Escape");
	await expect(dialog).toHaveCount(0);
	await context.close();
});

test("the administrator filters by person, deletes someone's generation to their Trash, and reads the audit log", async ({
	browser,
}) => {
	const ownerEmail = uniqueEmail("olga");
	const owner = await openAccount(browser, ownerEmail);
	const prompt = `Olga's paper crane on a windowsill ${Date.now()}`;
	await createGenerations(owner.request, [
		{ prompt, aspectRatio: "--ar 1:1" },
		{ prompt: `Olga's second crane ${Date.now()}`, aspectRatio: "--ar 3:2" },
	]);
	await owner.close();

	const admin: BrowserContext = await openAdministratorAccount(browser);
	const page = await admin.newPage();
	await page.goto("/generations");
	await expect(page.getByRole("heading", { level: 1, name: "All Generations" })).toBeVisible();
	await expect(page.getByText(SUMMARY)).toBeVisible();

	const person = page.getByRole("combobox", { name: "Person (e-mail)" });
	await person.fill(ownerEmail);
	await person.press("Enter");
	await expect(page).toHaveURL(/owner=/);
	await expect(page.getByText("2 generations match · 2 today")).toBeVisible();
	for (const owned of await page.getByRole("article").all()) {
		await expect(owned.getByText(ownerEmail, { exact: true })).toBeVisible();
	}
	await expectNoAxeViolations(page);

	const target = await revealCard(page, prompt);
	// To its owner's Trash, where the administrator can restore it.
	await target.getByRole("button", { name: "Delete" }).click();
	await expect(page.getByText("Generation deleted successfully")).toBeVisible();
	await expect(page.getByText("1 generation matches · 1 today")).toBeVisible();

	await page.getByRole("button", { name: "Account menu" }).click();
	await page.getByRole("menuitem", { name: "Audit log" }).click();
	await expect(page).toHaveURL(/\/admin\/audit-log$/);
	const row = page.getByRole("row").filter({ hasText: prompt });
	await expect(row).toBeVisible();
	await expect(row.getByRole("cell").nth(1)).toHaveText(E2E_ADMIN_EMAIL);
	await expect(row.getByRole("cell").nth(2)).toHaveText(ownerEmail);
	await expect(row.getByRole("cell").nth(0)).toHaveText(/\d{1,2}:\d{2}\s?[AP]M$/);
	await waitForTransitions(page);
	await expectNoAxeViolations(page);

	// Nobody else may open it.
	const someone = await openAccount(browser, uniqueEmail("nosy"));
	const nosy = await someone.newPage();
	await nosy.goto("/admin/audit-log");
	await expect(nosy).toHaveURL(/\/$/);
	const answer = await someone.request.get("/api/admin/audit-log");
	expect(answer.status()).toBe(404);
	await someone.close();
	await admin.close();
});
