import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import {
	createLighthouseImageShare,
	createTestShare,
	startFakeSharesServer,
} from "../../testing/fakes/fake-shares-server";
import { renderWithProviders } from "../../testing/render-app";
import { SharedLinksSection } from "./shared-links-section";

function renderSection() {
	startFakeAuthServer({ signedInAs: createTestUser() });
	return renderWithProviders(<SharedLinksSection />);
}

describe("the account page's shared links", () => {
	it("lists what each link shows, its dates, views and state, and offers Revoke and New link while live", async () => {
		startFakeSharesServer({
			shares: [
				createLighthouseImageShare({ expiresAt: "2025-01-12T09:00:00.000Z", views: 3 }),
				createTestShare({ prompt: "A harbour", state: "hidden" }),
			],
		});
		renderSection();
		const list = await screen.findByRole("list", { name: "Your shared links" });
		const [lighthouse, harbour] = within(list).getAllByRole("listitem");
		expect(lighthouse).toHaveTextContent("Image 2 of “A lighthouse”");
		expect(lighthouse).toHaveTextContent("Prompt hidden");
		expect(lighthouse).toHaveTextContent(
			/Created Jan 5, 2025.*expires Jan 12, 2025.*3 views, last Jan 6, 2025/,
		);
		expect(within(lighthouse as HTMLElement).getByRole("button", { name: "Revoke" })).toBeVisible();
		expect(harbour).toHaveTextContent("Taken down");
		expect(within(harbour as HTMLElement).queryByRole("button", { name: "Revoke" })).toBeNull();
	});

	it("names a board's link by its board, and a link whose generation or board was deleted as such", async () => {
		startFakeSharesServer({
			shares: [
				createTestShare({
					target: {
						generationId: null,
						imageIndex: null,
						boardId: "5a1c9e7e-2b44-4c53-9a8a-2f1f6a1f6c2d",
					},
					prompt: null,
					boardName: "Harbours",
				}),
				createTestShare({
					target: { generationId: null, imageIndex: null, boardId: null },
					prompt: null,
					state: "revoked",
				}),
			],
		});
		renderSection();
		const list = await screen.findByRole("list", { name: "Your shared links" });
		const [board, deleted] = within(list).getAllByRole("listitem");
		expect(board).toHaveTextContent("The board “Harbours”");
		expect(deleted).toHaveTextContent("Something since deleted");
	});

	it("revokes a link, and shows a renewed link's new address once", async () => {
		const server = startFakeSharesServer({ shares: [createTestShare({ prompt: "A kite" })] });
		const { user } = renderSection();
		const list = await screen.findByRole("list", { name: "Your shared links" });
		await user.click(within(list).getByRole("button", { name: "New link" }));
		const field = await screen.findByRole("textbox", { name: /Your link/ });
		expect((field as HTMLInputElement).value).toMatch(/^http:\/\/localhost:3000\/s\//);
		const live = await within(list).findAllByRole("button", { name: "Revoke" });
		expect(live).toHaveLength(1);
		await user.click(live[0] as HTMLElement);
		expect(await within(list).findAllByText("Ended")).toHaveLength(2);
		expect(server.readShares().every((share) => share.state === "revoked")).toBe(true);
	});
});
