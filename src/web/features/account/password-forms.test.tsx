import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { renderApp, renderWithProviders } from "../../testing/render-app";
import { ChangePasswordForm } from "./change-password-form";

describe("what a new password ends, said before it happens", () => {
	it("the reset form says every other device, API token and webhook ends", async () => {
		startFakeAuthServer();
		renderApp({ path: "/reset-password?token=a-reset-token" });

		expect(
			await screen.findByText(
				"Choose the password you will sign in with from now on. Every other device will be signed out, and every API token and webhook of this account will end.",
			),
		).toBeVisible();
	});

	it("the change form says so too", () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderWithProviders(<ChangePasswordForm onChanged={() => {}} />);

		expect(
			screen.getByText(
				"Other devices will be signed out, and every API token and webhook of this account will end.",
				{ exact: false },
			),
		).toBeVisible();
	});
});
