import { expect, test } from "@playwright/test";
import { E2E_PASSWORD } from "./support/constants";
import { expectNoAxeViolations, uniqueEmail, waitForMail } from "./support/journeys";

// A browser that asks for German (Accept-Language: de-DE) and has chosen nothing yet.
test.use({ locale: "de-DE" });

test("a German browser signs up in German, hears the server's errors and gets its mail in German", async ({
	page,
}) => {
	// The prerendered page itself is German, before any script: the server chose it.
	const answer = await page.goto("/signup");
	expect(answer?.headers().vary).toContain("accept-language");
	await expect(page.locator("html")).toHaveAttribute("lang", "de");
	await expect(page.getByRole("heading", { name: "Konto erstellen" })).toBeVisible();
	await expectNoAxeViolations(page);

	const email = uniqueEmail("deutsch");
	await page.getByLabel("E-Mail").fill(email);
	await page.getByLabel("Passwort", { exact: true }).fill(E2E_PASSWORD);
	await page.getByLabel("Passwort bestätigen").fill(`${E2E_PASSWORD}!`);
	await page.getByRole("button", { name: "Registrieren" }).click();
	await expect(page.getByRole("alert")).toContainText("Die Passwörter stimmen nicht überein");
	await page.getByLabel("Passwort bestätigen").fill(E2E_PASSWORD);
	await page.getByRole("button", { name: "Registrieren" }).click();
	await expect(page).toHaveURL(/\/$/);
	await expect(page.getByRole("button", { name: "Kontomenü" })).toBeVisible();

	// An error of the server's catalogue, asked for by this browser, in German.
	const refused = await page.evaluate(async () => {
		const response = await fetch("/api/generations/00000000-0000-4000-8000-000000000000");
		return { status: response.status, body: await response.json() };
	});
	expect(refused).toEqual({
		status: 404,
		body: { success: false, error: { code: "NOT_FOUND", message: "Nicht gefunden." } },
	});

	// The reset mail, asked for by this browser, is written in German.
	await page.context().clearCookies();
	const since = Date.now();
	const asked = await page.evaluate(async (address) => {
		const response = await fetch("/api/auth/request-password-reset", {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ email: address, redirectTo: "/reset-password" }),
		});
		return response.status;
	}, email);
	expect(asked).toBe(200);
	const mail = await waitForMail(email, since);
	expect(mail.subject).toBe("Setze dein Atelier-Passwort zurück");
});

test("Language in the user menu writes the next pages in the language chosen, whatever the browser asks for", async ({
	page,
}) => {
	await page.goto("/signup");
	const email = uniqueEmail("choice");
	await page.getByLabel("E-Mail").fill(email);
	await page.getByLabel("Passwort", { exact: true }).fill(E2E_PASSWORD);
	await page.getByLabel("Passwort bestätigen").fill(E2E_PASSWORD);
	await page.getByRole("button", { name: "Registrieren" }).click();
	await expect(page.getByRole("button", { name: "Kontomenü" })).toBeVisible();

	await page.getByRole("button", { name: "Kontomenü" }).click();
	const menu = page.getByRole("menu");
	await expect(menu.getByText("Sprache", { exact: true })).toBeVisible();
	await expectNoAxeViolations(page);
	await menu.getByRole("menuitemradio", { name: "English" }).click();
	// The page is loaded again in English.
	await expect(page.locator("html")).toHaveAttribute("lang", "en");

	// Signed out, this browser keeps the choice: the sign-in page comes in English.
	await page.context().clearCookies({ name: /session/ });
	await page.goto("/login");
	await expect(page.locator("html")).toHaveAttribute("lang", "en");
	await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
	const error = await page.evaluate(async () => {
		const response = await fetch("/api/no-such-route");
		return ((await response.json()) as { error: { message: string } }).error.message;
	});
	expect(error).toBe("Not found.");
});
