import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { renderApp } from "../../testing/render-app";

describe("AdminClaimNotice", () => {
	it("tells the signed-in owner of the unclaimed administrator's address how to claim it", async () => {
		const owner = createTestUser({ email: "boss@example.com", isAdminUnclaimed: true });
		startFakeAuthServer({ signedInAs: owner });
		renderApp({ path: "/" });

		const notice = await screen.findByRole("region", { name: "Claim the administrator's account" });
		expect(notice).toHaveTextContent("This is the administrator's address, not yet claimed.");
		expect(notice).toHaveTextContent(
			"open the link \"Claim the Atelier administrator's account\" mailed to boss@example.com (on a server without mail, it is in the server's log)",
		);
		expect(notice).toHaveTextContent("Every session, API token and webhook made before then ends.");
		expect(screen.getByRole("link", { name: "Forgot password" })).toHaveAttribute(
			"href",
			"/forgot-password",
		);
	});

	it("says nothing to anyone else, the claimed administrator included", async () => {
		startFakeAuthServer({ signedInAs: createTestUser({ isAdmin: true }) });
		renderApp({ path: "/" });

		await screen.findByRole("button", { name: "Account menu" });
		expect(
			screen.queryByRole("region", { name: "Claim the administrator's account" }),
		).not.toBeInTheDocument();
	});
});
