import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { readZip } from "../../src/server/testing/read-zip";
import { startSmtpInbox } from "../../src/server/testing/smtp-inbox";
import { removeDataDir, startAppServer } from "./support/app-server";
import { E2E_PASSWORD, E2E_PORT } from "./support/constants";
import {
	expectNoAxeViolations,
	readMailLink,
	signIn,
	signInAsAdministrator,
	signUp,
	uniqueEmail,
	waitForMail,
} from "./support/journeys";

async function openAccountPage(page: Page): Promise<void> {
	await page.getByRole("button", { name: "Account menu" }).click();
	await page.getByRole("menuitem", { name: "Account" }).click();
	await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
}

async function generateOnce(page: Page, prompt: string): Promise<void> {
	await page.goto("/");
	await page.getByRole("textbox", { name: "Prompt" }).fill(prompt);
	await page.getByRole("button", { name: "Generate", exact: true }).click();
	await expect(
		page.getByRole("region", { name: "Result" }).getByRole("heading", { name: "4 images" }),
	).toBeVisible({ timeout: 30_000 });
}

test("forgot password: a mailed link sets a new password once, signs in here and out elsewhere", async ({
	page,
	browser,
}) => {
	const email = uniqueEmail("forgot");
	await signUp(page, email);
	const otherDevice = await browser.newContext();
	const otherPage = await otherDevice.newPage();
	await signIn(otherPage, email);
	await page.context().clearCookies();

	await page.goto("/login");
	await page.getByRole("link", { name: "Forgot password?" }).click();
	await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
	await expectNoAxeViolations(page);
	const since = Date.now();
	await page.getByLabel("Email").fill(email);
	await page.getByRole("button", { name: "Send the link" }).click();
	await expect(page.getByRole("status")).toContainText(
		"If an account exists for that address, we sent a link.",
	);

	const mail = await waitForMail(email, since);
	expect(mail.subject).toBe("Reset your Atelier password");
	const link = readMailLink(mail);
	await page.goto(link);
	await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
	await expectNoAxeViolations(page);
	await page.getByLabel("New password", { exact: true }).fill("brand new pass");
	await page.getByLabel("Confirm new password").fill("brand new pas");
	await page.getByRole("button", { name: "Set password" }).click();
	await expect(page.getByRole("alert")).toContainText("Passwords do not match");
	await page.getByLabel("Confirm new password").fill("brand new pass");
	await page.getByRole("button", { name: "Set password" }).click();
	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();

	await otherPage.reload();
	await expect(otherPage.getByRole("link", { name: "Sign In" })).toBeVisible();
	await otherDevice.close();

	// The link works once; the page says so and offers a new one.
	await page.goto(link);
	await expect(page.getByRole("heading", { name: "This link has expired" })).toBeVisible();
	await expect(page.getByRole("button", { name: "Send a new link" })).toBeVisible();
	await expectNoAxeViolations(page);

	await page.context().clearCookies();
	await signIn(page, email, "brand new pass");
});

test("change password and sign out of other devices from the account page", async ({
	page,
	browser,
}) => {
	const email = uniqueEmail("devices");
	await signUp(page, email);
	const otherDevice = await browser.newContext();
	const otherPage = await otherDevice.newPage();
	await signIn(otherPage, email);

	await openAccountPage(page);
	await expect(page.getByText(email, { exact: true })).toBeVisible();
	await expect(page.getByText("Free Account")).toBeVisible();
	const devices = page.getByRole("region", { name: "Signed-in devices" });
	await expect(devices.getByRole("listitem")).toHaveCount(2);
	await expect(devices.getByText("This device")).toBeVisible();
	await expectNoAxeViolations(page);

	await devices.getByRole("button", { name: "Sign out of other devices" }).click();
	await expect(devices.getByRole("status")).toHaveText("You are signed out of every other device.");
	await expect(devices.getByRole("listitem")).toHaveCount(1);
	await otherPage.reload();
	await expect(otherPage.getByRole("link", { name: "Sign In" })).toBeVisible();
	await otherDevice.close();

	const password = page.getByRole("region", { name: "Password" });
	await password.getByLabel("Current password", { exact: true }).fill("not my password");
	await password.getByLabel("New password", { exact: true }).fill("changed password");
	await password.getByLabel("Confirm new password").fill("changed password");
	await password.getByRole("button", { name: "Change password" }).click();
	await expect(password.getByRole("alert")).toContainText("Your current password is not right.");
	await password.getByLabel("Current password", { exact: true }).fill(E2E_PASSWORD);
	await password.getByRole("button", { name: "Change password" }).click();
	await expect(password.getByRole("status")).toContainText("Your password is changed.");

	await page.context().clearCookies();
	await signIn(page, email, "changed password");
});

test("export my data downloads a ZIP of every generation with its metadata", async ({ page }) => {
	const email = uniqueEmail("export");
	await signUp(page, email);
	await generateOnce(page, "a paper boat on a pond");
	await openAccountPage(page);

	const downloadStarted = page.waitForEvent("download");
	await page.getByRole("link", { name: "Export my data" }).click();
	const download = await downloadStarted;
	expect(download.suggestedFilename()).toMatch(/^atelier-export-\d{4}-\d{2}-\d{2}\.zip$/);
	const files = await readZip(await readFile((await download.path()) ?? ""));
	expect(JSON.parse(files.get("account.json")?.toString() ?? "{}")).toMatchObject({ email });
	const listed = JSON.parse(files.get("generations.json")?.toString() ?? "[]") as {
		prompt: string;
	}[];
	expect(listed.map((entry) => entry.prompt)).toEqual(["a paper boat on a pond"]);
	expect([...files.keys()].filter((name) => name.includes("/image-"))).toHaveLength(4);
});

test("delete my account: confirmed by typing the e-mail, then signed out with nothing left", async ({
	page,
}) => {
	const email = uniqueEmail("leaving");
	await signUp(page, email);
	await generateOnce(page, "a last picture");
	await openAccountPage(page);

	await page.getByRole("button", { name: "Delete my account" }).click();
	const dialog = page.getByRole("alertdialog");
	await expect(dialog).toBeVisible();
	await expectNoAxeViolations(page);
	const confirm = dialog.getByRole("button", { name: "Delete my account" });
	await dialog.getByLabel("Your e-mail address").fill("someone-else@example.com");
	await expect(confirm).toBeDisabled();
	await dialog.getByLabel("Your e-mail address").fill(email);
	await confirm.click();

	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByText("Your account and everything in it were deleted.")).toBeVisible();
	await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();

	await page.goto("/login");
	await page.getByLabel("Email").fill(email);
	await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
	await page.getByRole("button", { name: "Sign In", exact: true }).click();
	await expect(page.getByRole("alert")).toContainText(/invalid email or password/i);
});

test("the administrator's account page says why it cannot be deleted", async ({ page }) => {
	await signInAsAdministrator(page);
	await openAccountPage(page);
	await expect(page.getByText(/You are the administrator/)).toBeVisible();
	await expect(page.getByRole("button", { name: "Delete my account" })).toHaveCount(0);
});

test("e-mail verification: generating waits for the link, which can be sent again", async ({
	page,
}) => {
	const inbox = await startSmtpInbox();
	const server = await startAppServer({
		port: E2E_PORT + 15,
		env: {
			REQUIRE_EMAIL_VERIFICATION: "true",
			SMTP_URL: inbox.smtpUrl,
			MAIL_FROM: "Atelier <atelier@example.com>",
			LOCAL_ENGINE_DELAY_MS: "0",
		},
	});
	try {
		const email = uniqueEmail("verify");
		await page.goto(`${server.baseUrl}/signup`);
		await page.getByLabel("Email").fill(email);
		await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
		await page.getByLabel("Confirm password").fill(E2E_PASSWORD);
		await page.getByRole("button", { name: "Sign Up" }).click();
		await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
		const first = await inbox.waitForMail(email);
		expect(first.subject).toBe("Verify your e-mail address for Atelier");

		await page.getByRole("textbox", { name: "Prompt" }).fill("a quiet harbour");
		await page.getByRole("button", { name: "Generate", exact: true }).click();
		const result = page.getByRole("region", { name: "Result" });
		await expect(result.getByRole("alert")).toContainText(
			"Please verify your e-mail address to generate images.",
		);
		const since = Date.now();
		await result.getByRole("button", { name: "Resend the e-mail" }).click();
		await expect(result.getByText(`We sent a new link to ${email}.`)).toBeVisible();
		await expectNoAxeViolations(page);
		const again = await inbox.waitForMail(email, { since });

		await page.goto(again.links[0] ?? "");
		await expect(
			page.getByRole("heading", { name: "Your e-mail address is verified" }),
		).toBeVisible();
		await expectNoAxeViolations(page);
		await page.getByRole("link", { name: "Start creating" }).click();
		await page.getByRole("textbox", { name: "Prompt" }).fill("a quiet harbour");
		await page.getByRole("button", { name: "Generate", exact: true }).click();
		await expect(result.getByRole("heading", { name: "4 images" })).toBeVisible({
			timeout: 30_000,
		});

		await page.goto(`${server.baseUrl}/verify-email?error=TOKEN_EXPIRED`);
		await expect(
			page.getByRole("heading", { name: "This link has expired or is not valid" }),
		).toBeVisible();
	} finally {
		await server.stop();
		await removeDataDir(server.dataDir);
		await inbox.stop();
	}
});
