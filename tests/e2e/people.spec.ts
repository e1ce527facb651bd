import { expect, type Page, test } from "@playwright/test";
import { E2E_PASSWORD } from "./support/constants";
import { createGenerations, openAccount, openAdministratorAccount } from "./support/history";
import { expectNoAxeViolations, uniqueEmail } from "./support/journeys";

// The administrator's People page: finding someone, their quotas, disabling and enabling them,
// and deleting their account, each asked first and each in the audit log.

function rowOf(page: Page, email: string) {
	return page.getByRole("row").filter({ has: page.getByText(email, { exact: true }) });
}

async function chooseAction(page: Page, email: string, action: string) {
	await page.getByRole("button", { name: `Actions for ${email}` }).click();
	await page.getByRole("menuitem", { name: action }).click();
}

test("the administrator finds a person, sets their quotas, disables, enables and deletes them", async ({
	browser,
}) => {
	const email = uniqueEmail("pia");
	const person = await openAccount(browser, email);
	await createGenerations(person.request, [
		{ prompt: "Pia's paper boat", aspectRatio: "--ar 1:1" },
	]);

	const admin = await openAdministratorAccount(browser);
	const page = await admin.newPage();
	await page.setViewportSize({ width: 1440, height: 900 });
	await page.goto("/generations");
	await page.getByRole("button", { name: "Account menu" }).click();
	await page.getByRole("menuitem", { name: "People" }).click();
	await expect(page).toHaveURL(/\/admin\/people$/);
	await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
	await expect(page.getByRole("table")).toBeVisible();
	await expectNoAxeViolations(page);

	await page.getByRole("searchbox", { name: "Search by e-mail" }).fill(email);
	await expect(page.getByText("Page 1 of 1 · 1 person")).toBeVisible();
	const row = rowOf(page, email);
	// Generations, this month's, images (the local engine makes four).
	await expect(row.getByRole("cell").nth(3)).toHaveText("1");
	await expect(row.getByRole("cell").nth(4)).toHaveText("1");
	await expect(row.getByRole("cell").nth(5)).toHaveText("4");
	await expect(row.getByRole("cell").nth(8)).toHaveText("Active");

	const generationsHeader = page.getByRole("columnheader", { name: /^Generations/ });
	await generationsHeader.getByRole("button").click();
	await expect(generationsHeader).toHaveAttribute("aria-sort", "descending");

	await chooseAction(page, email, "Quotas…");
	const quotas = page.getByRole("dialog", { name: "Quotas" });
	await quotas.getByRole("textbox", { name: "Active generations at once" }).fill("1");
	await quotas.getByRole("textbox", { name: "Generations per day" }).fill("5");
	await expectNoAxeViolations(page);
	await quotas.getByRole("button", { name: "Save quotas" }).click();
	await expect(quotas).toBeHidden();
	await expect(row.getByText("Quota: 1 at once, 5 a day")).toBeVisible();

	await chooseAction(page, email, "Disable…");
	const confirmDisable = page.getByRole("alertdialog", { name: "Disable this person?" });
	await expect(confirmDisable).toBeVisible();
	await expectNoAxeViolations(page);
	await confirmDisable.getByRole("button", { name: "Disable" }).click();
	await expect(row.getByRole("cell").nth(8)).toHaveText("Disabled");

	// The person's session ends at once, and signing in again says why it is refused.
	expect((await person.request.get("/api/generations")).status()).toBe(401);
	const personPage = await person.newPage();
	await personPage.goto("/login");
	await personPage.getByLabel("Email").fill(email);
	await personPage.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
	await personPage.getByRole("button", { name: "Sign In", exact: true }).click();
	await expect(personPage.getByRole("alert")).toHaveText(
		"This account has been disabled by the administrator.",
	);
	await person.close();

	await chooseAction(page, email, "Enable…");
	await page
		.getByRole("alertdialog", { name: "Enable this person?" })
		.getByRole("button", { name: "Enable" })
		.click();
	await expect(row.getByRole("cell").nth(8)).toHaveText("Active");

	// Each action is in the audit log, which links back to the People page.
	await page.getByRole("link", { name: "Audit log", exact: true }).click();
	await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
	const entries = page.getByRole("row").filter({ has: page.getByText(email, { exact: true }) });
	for (const action of ["Set the quotas", "Disabled the account", "Enabled the account"]) {
		await expect(entries.filter({ hasText: action })).toHaveCount(1);
	}
	await expectNoAxeViolations(page);
	await page.getByRole("link", { name: "People", exact: true }).click();
	await page.getByRole("searchbox", { name: "Search by e-mail" }).fill(email);

	await chooseAction(page, email, "Delete account…");
	await page
		.getByRole("alertdialog", { name: "Delete this account?" })
		.getByRole("button", { name: "Delete account" })
		.click();
	await expect(page.getByText(`Nobody's e-mail contains “${email}”.`)).toBeVisible();

	// The deletion joins the log, and the entries about the account outlive it, each with the
	// e-mail address it was written with.
	await page.getByRole("link", { name: "Audit log", exact: true }).click();
	for (const action of [
		"Deleted the account",
		"Set the quotas",
		"Disabled the account",
		"Enabled the account",
	]) {
		await expect(entries.filter({ hasText: action })).toHaveCount(1);
	}
	await expect(entries).toHaveCount(4);
	await admin.close();
});
