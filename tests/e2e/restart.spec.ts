import { expect, test } from "@playwright/test";
import { removeDataDir, startAppServer } from "./support/app-server";
import { E2E_PASSWORD, E2E_PORT } from "./support/constants";
import { uniqueEmail } from "./support/journeys";

test("a signed-in person stays signed in across a server restart", async ({ page }) => {
	const port = E2E_PORT + 12;
	let server = await startAppServer({ port });
	const dataDir = server.dataDir;
	try {
		const email = uniqueEmail("restart");
		await page.goto(`${server.baseUrl}/signup`);
		await page.getByLabel("Email").fill(email);
		await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
		await page.getByLabel("Confirm password").fill(E2E_PASSWORD);
		await page.getByRole("button", { name: "Sign Up" }).click();
		await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();

		await server.stop("SIGTERM");
		server = await startAppServer({ port, dataDir });

		await page.goto(`${server.baseUrl}/generations`);
		await expect(page.getByRole("heading", { name: "Saved Generations" })).toBeVisible();
		await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
	} finally {
		await server.stop();
		await removeDataDir(dataDir);
	}
});

test("a second server on the same data folder exits at once with a clear message", async () => {
	const first = await startAppServer({ port: E2E_PORT + 13 });
	try {
		await expect(startAppServer({ port: E2E_PORT + 14, dataDir: first.dataDir })).rejects.toThrow(
			/already using the data folder/,
		);
	} finally {
		await first.stop();
		await removeDataDir(first.dataDir);
	}
});
