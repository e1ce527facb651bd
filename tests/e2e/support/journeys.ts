import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { E2E_PASSWORD } from "./constants";

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

/** Fails on any axe violation, listing each rule and the elements it found. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
	const results = await new AxeBuilder({ page }).analyze();
	const summary = results.violations.map(
		(violation) =>
			`${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
	);
	expect(summary).toEqual([]);
}
