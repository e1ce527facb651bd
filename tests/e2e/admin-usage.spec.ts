import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { createGenerations, openAccount, openAdministratorAccount } from "./support/history";
import { expectNoAxeViolations, uniqueEmail, waitForTransitions } from "./support/journeys";

/** Today as the report writes it in a CSV: the browser and this process share the time zone. */
function todayInCsv(): string {
	return new Intl.DateTimeFormat("en-CA").format(new Date());
}

test("the administrator reads thirty days of usage as charts, tables and CSV; nobody else may", async ({
	browser,
}) => {
	// Journeys beside this one share the server: these numbers are at least ours.
	const maker = await openAccount(browser, uniqueEmail("uma"));
	await createGenerations(maker.request, [
		{
			prompt: `Uma's quick sketch of a heron ${Date.now()}`,
			aspectRatio: "--ar 1:1",
			model: "sketch",
			count: 2,
		},
	]);
	await maker.close();

	const admin = await openAdministratorAccount(browser);
	const page = await admin.newPage();
	await page.goto("/admin/audit-log");
	await page
		.getByRole("navigation", { name: "Administration" })
		.getByRole("link", { name: "Usage" })
		.click();
	await expect(page).toHaveURL(/\/admin\/usage$/);
	await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();

	const generations = page.getByRole("region", { name: "Generations per day by model" });
	// Drawn by the chart library, which this screen alone loads.
	await expect(
		generations.getByRole("img", { name: /^Generations per day by model: chart\./ }),
	).toBeVisible();
	await generations.getByText("Show as table").click();
	const table = generations.getByRole("table", { name: "Generations per day by model" });
	await expect(table.getByRole("row").filter({ hasText: "Quick sketch" }).first()).toBeVisible();

	const [download] = await Promise.all([
		page.waitForEvent("download"),
		generations.getByRole("link", { name: "Download CSV: Generations per day by model" }).click(),
	]);
	expect(download.suggestedFilename()).toBe(`atelier-generations-${todayInCsv()}.csv`);
	const csv = await readFile(await download.path(), "utf8");
	const lines = csv.split("\r\n");
	expect(lines[0]).toBe("Day,Model,Completed,Failed,Total");
	expect(lines.some((line) => line.startsWith(`${todayInCsv()},Quick sketch,`))).toBe(true);

	const spend = page.getByRole("region", { name: "Estimated spend per day" });
	await expect(spend.getByText(/^Total over the last 30 days: \$\d+\.\d{2,4}\.$/)).toBeVisible();
	await expect(
		page.getByRole("region", { name: "Top ten spenders" }).getByRole("img"),
	).toBeVisible();
	await waitForTransitions(page);
	await expectNoAxeViolations(page);

	// Nobody else may open it.
	const someone = await openAccount(browser, uniqueEmail("nosy"));
	const nosy = await someone.newPage();
	await nosy.goto("/admin/usage");
	await expect(nosy).toHaveURL(/\/$/);
	expect((await someone.request.get("/api/admin/usage")).status()).toBe(404);
	await someone.close();
	await admin.close();
});
