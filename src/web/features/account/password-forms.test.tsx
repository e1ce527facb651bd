import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { mswServer } from "../../testing/msw-server";
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

	it.each([
		{
			choice: "signs out other devices (the default)",
			isUnticked: false,
			revokeOtherSessions: true,
			said: "Your password is changed. Other devices were signed out, and earlier API tokens and webhooks ended.",
		},
		{
			choice: "keeps them when asked",
			isUnticked: true,
			revokeOtherSessions: false,
			said: "Your password is changed.",
		},
	])(
		"the change $choice, and says what it did",
		async ({ isUnticked, revokeOtherSessions, said }) => {
			startFakeAuthServer({ signedInAs: createTestUser() });
			const bodies: unknown[] = [];
			mswServer.use(
				http.post("*/api/auth/change-password", async ({ request }) => {
					bodies.push(await request.json());
					return HttpResponse.json({ token: null, user: {} });
				}),
			);
			const user = userEvent.setup();
			renderWithProviders(<ChangePasswordForm onChanged={() => {}} />);

			await user.type(screen.getByLabelText("Current password"), "old password here");
			await user.type(screen.getByLabelText("New password"), "a new password here");
			await user.type(screen.getByLabelText("Confirm new password"), "a new password here");
			const signOut = screen.getByRole("checkbox", { name: /Sign out other devices/ });
			expect(signOut).toBeChecked();
			if (isUnticked) await user.click(signOut);
			await user.click(screen.getByRole("button", { name: "Change password" }));

			expect(await screen.findByText(said)).toBeVisible();
			expect(bodies).toEqual([
				{
					currentPassword: "old password here",
					newPassword: "a new password here",
					revokeOtherSessions,
				},
			]);
		},
	);
});
