import { expect, type Page, test } from "@playwright/test";
import { z } from "zod/mini";
import {
	CreateGenerationResponseSchema,
	ErrorEnvelopeSchema,
	PollResponseSchema,
} from "../../src/shared/generations/generation-responses";
import { E2E_BASE_URL } from "./support/constants";
import { expectNoAxeViolations, signUp, uniqueEmail } from "./support/journeys";

async function openAccountPage(page: Page): Promise<void> {
	await page.getByRole("button", { name: "Account menu" }).click();
	await page.getByRole("menuitem", { name: "Account" }).click();
	await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
}

/** A script's request: the token, no cookie, no browser. */
function callWithToken(token: string, path: string, init: RequestInit = {}): Promise<Response> {
	return fetch(new URL(path, E2E_BASE_URL), {
		...init,
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
	});
}

test("a token made on the account page starts and follows a generation from a script, until it is revoked", async ({
	page,
}) => {
	await signUp(page, uniqueEmail("tokens"));
	await openAccountPage(page);
	const section = page.getByRole("region", { name: "API tokens" });
	await expect(section.getByText("You have no API tokens.")).toBeVisible();
	await expectNoAxeViolations(page);

	await section.getByRole("textbox", { name: "Name" }).fill("Journey script");
	await section.getByRole("combobox", { name: "Expires" }).selectOption("In 30 days");
	await section.getByRole("button", { name: "Create token" }).click();
	const shown = section.getByRole("textbox", { name: "New API token" });
	await expect(shown).toHaveValue(/^atl_/);
	const token = await shown.inputValue();
	await expectNoAxeViolations(page);
	await section.getByRole("button", { name: "Done" }).click();
	await expect(section.getByRole("list", { name: "Your API tokens" })).toContainText(
		"Journey script",
	);

	const started = await callWithToken(token, "/api/generations", {
		method: "POST",
		body: JSON.stringify({ prompt: "A lighthouse started by a script", aspectRatio: "--ar 1:1" }),
	});
	expect(started.status).toBe(201);
	const created = z.parse(CreateGenerationResponseSchema, await started.json());
	if (!created.success) throw new Error(created.error.message);
	let poll = z.parse(
		PollResponseSchema,
		await (await callWithToken(token, created.pollingUrl)).json(),
	);
	await expect
		.poll(
			async () => {
				poll = z.parse(
					PollResponseSchema,
					await (await callWithToken(token, `${created.pollingUrl}?wait=5000`)).json(),
				);
				return poll.status;
			},
			{ timeout: 30_000 },
		)
		.toBe("completed");
	const image = await callWithToken(token, poll.results[0] ?? "");
	expect(image.status).toBe(200);

	await page.reload();
	const list = page.getByRole("list", { name: "Your API tokens" });
	await expect(list).toContainText("last used");
	await list.getByRole("button", { name: "Revoke Journey script" }).click();
	const dialog = page.getByRole("alertdialog", { name: "Revoke “Journey script”?" });
	await expect(dialog).toBeVisible();
	await expectNoAxeViolations(page);
	await dialog.getByRole("button", { name: "Revoke" }).click();
	await expect(page.getByText("You have no API tokens.")).toBeVisible();

	const refused = await callWithToken(token, created.pollingUrl);
	expect(refused.status).toBe(401);
	expect(z.parse(ErrorEnvelopeSchema, await refused.json()).error.code).toBe("AUTH_ERROR");
});

test("the API reference renders the document from this server", async ({ page }) => {
	const foreign: string[] = [];
	page.on("request", (request) => {
		if (!request.url().startsWith(E2E_BASE_URL)) foreign.push(request.url());
	});
	await page.goto("/api/docs");
	await expect(page.getByRole("heading", { name: "Atelier API" }).first()).toBeVisible({
		timeout: 30_000,
	});
	await expect(page.getByText("Start a generation").first()).toBeVisible();
	expect(foreign).toEqual([]);
});
