import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_PASSWORD, MAIL_INBOX_PORT } from "./constants";

export function uniqueEmail(prefix = "person"): string {
	return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export async function signUp(page: Page, email: string, password = E2E_PASSWORD): Promise<void> {
	await page.goto("/signup");
	await page.getByLabel("Email").fill(email);
	await page.getByLabel("Password", { exact: true }).fill(password);
	await page.getByLabel("Confirm password").fill(password);
	await page.getByRole("button", { name: "Sign Up" }).click();
	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
}

export async function signIn(page: Page, email: string, password = E2E_PASSWORD): Promise<void> {
	await page.goto("/login");
	await page.getByLabel("Email").fill(email);
	await page.getByLabel("Password", { exact: true }).fill(password);
	await page.getByRole("button", { name: "Sign In", exact: true }).click();
	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
}

/** Signs in as the administrator, whose account the global setup claimed (support/administrator.ts). */
export async function signInAsAdministrator(page: Page): Promise<void> {
	await signIn(page, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD);
}

/** Fails on any axe violation, listing each rule and the elements it found. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
	const results = await new AxeBuilder({ page }).analyze();
	const summary = results.violations.map(
		(violation) =>
			`${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
	);
	expect(summary).toEqual([]);
}

/** Fails on any axe violation in the light theme or the dark, and leaves the page light. */
/** Waits until transitions have finished (a toast fading in would read as low contrast to axe). */
export async function waitForTransitions(page: Page): Promise<void> {
	await expect
		.poll(() =>
			page.evaluate(
				() =>
					document
						.getAnimations()
						.filter(
							(animation) =>
								animation.playState === "running" &&
								animation.effect?.getTiming().iterations !== Infinity,
						).length,
			),
		)
		.toBe(0);
}

export async function expectAxeInBothThemes(page: Page): Promise<void> {
	await page.emulateMedia({ colorScheme: "light" });
	await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
	// A theme's colours arrive through the elements' colour transitions: axe reads them once ended.
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	await page.emulateMedia({ colorScheme: "dark" });
	await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
	await waitForTransitions(page);
	await expectNoAxeViolations(page);
	await page.emulateMedia({ colorScheme: "light" });
}

/**
 * Clicks the page at (x, y), outside the open dialog, once the dialog can notice it. Radix starts
 * listening for clicks outside a dialog one timer tick after the dialog has opened (so the click
 * that opened it does not close it again); on a loaded machine a click sent as soon as the dialog
 * is visible can arrive before that tick and go unnoticed, which no person clicking is quick
 * enough to do. Focus inside the dialog shows it has mounted; one tick of the page's own timers
 * later the listener is there.
 */
export async function clickOutsideDialog(page: Page, x: number, y: number): Promise<void> {
	await expect(page.locator('[role="dialog"]:focus-within')).toBeVisible();
	await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
	await page.mouse.click(x, y);
}

type InboxMail = { to: string[]; subject: string; links: string[]; receivedAt: number };

/** The newest mail to `to` received after `since`, as the journeys' SMTP inbox kept it. */
export async function waitForMail(to: string, since: number): Promise<InboxMail> {
	const deadline = Date.now() + 15_000;
	for (;;) {
		const response = await fetch(
			`http://127.0.0.1:${MAIL_INBOX_PORT}/messages?to=${encodeURIComponent(to)}`,
		);
		const messages = ((await response.json()) as InboxMail[]).filter(
			(mail) => mail.receivedAt >= since,
		);
		const newest = messages.at(-1);
		if (newest) return newest;
		if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** The one link in a mail. */
export function readMailLink(mail: { links: string[] }): string {
	expect(mail.links).toHaveLength(1);
	return mail.links[0] ?? "";
}

/**
 * Holds the app's entry script until the returned function is called: meanwhile the page is its
 * prerendered HTML only, as on a slow network before the app has started.
 */
export async function holdAppScript(page: Page): Promise<() => void> {
	let release: () => void = () => {};
	const held = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
		await held;
		await route.continue();
	});
	return release;
}
