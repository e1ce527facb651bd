import { screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { createRef } from "react";
import { describe, expect, it, vi } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { startFakeSharesServer } from "../../testing/fakes/fake-shares-server";
import { mswServer } from "../../testing/msw-server";
import { renderWithProviders } from "../../testing/render-app";
import { ShareDialog, type ShareSubject } from "./share-dialog";

const GENERATION_ID = "0f8b8e6e-3a55-4c53-9a8a-2f1f6a1f6c2d";

const BOARD_ID = "5a1c9e7e-2b44-4c53-9a8a-2f1f6a1f6c2d";

/** The server's public config with its sharing switches (SHARING, SHARE_MAX_DAYS). */
function useSharingConfig(config: { sharing?: string; shareMaxDays?: number }) {
	mswServer.use(
		http.get("*/api/config", () =>
			HttpResponse.json({ googleEnabled: false, imageProvider: "local", ...config }),
		),
	);
}

function renderDialog(
	subject: ShareSubject = { generationId: GENERATION_ID, imageIndex: 2, imageCount: 4 },
) {
	startFakeAuthServer({ signedInAs: createTestUser() });
	return renderWithProviders(
		<ShareDialog subject={subject} isOpen onClose={() => {}} returnFocusRef={createRef()} />,
	);
}

describe("the share dialog", () => {
	it("makes a link to the image shown with the options chosen, and shows it once to copy", async () => {
		const server = startFakeSharesServer();
		const { user } = renderDialog();
		await user.click(screen.getByRole("radio", { name: "Image 3 only" }));
		await user.selectOptions(screen.getByRole("combobox", { name: "Expires" }), "In 1 day");
		await user.click(screen.getByRole("checkbox", { name: /Show the prompt/ }));
		await user.click(screen.getByRole("checkbox", { name: /Allow downloading the originals/ }));
		await user.click(screen.getByRole("button", { name: "Create link" }));
		const field = await screen.findByRole("textbox", { name: /Your link/ });
		expect((field as HTMLInputElement).value).toMatch(/^http:\/\/localhost:3000\/s\/\w+/);
		expect(server.readRequests()).toEqual([
			{
				target: { generationId: GENERATION_ID, imageIndex: 2 },
				expires: "1d",
				originals: true,
				showPrompt: false,
			},
		]);
	});

	it("shows the server's refusal in the dialog and keeps the choices", async () => {
		startFakeSharesServer({
			failure: "VALIDATION_ERROR",
			failureMessage: "expires: links on this server last at most 7 days; choose a shorter expiry.",
		});
		const { user } = renderDialog();
		await user.selectOptions(screen.getByRole("combobox", { name: "Expires" }), "Never");
		await user.click(screen.getByRole("button", { name: "Create link" }));
		expect(await screen.findByRole("alert")).toHaveTextContent("at most 7 days");
		expect(screen.getByRole("combobox", { name: "Expires" })).toHaveValue("never");
	});

	it("shares a board with Share board's own title", async () => {
		const server = startFakeSharesServer();
		const { user } = renderDialog({ boardId: BOARD_ID });
		expect(await screen.findByRole("dialog", { name: "Share board" })).toHaveTextContent(
			"what is on this board, as it changes",
		);
		expect(screen.queryByRole("radio")).toBeNull();
		await user.click(screen.getByRole("button", { name: "Create link" }));
		await screen.findByRole("textbox", { name: /Your link/ });
		expect(server.readRequests()).toEqual([
			{ target: { boardId: BOARD_ID }, expires: "7d", originals: false, showPrompt: true },
		]);
	});

	it("offers only the expiries the server allows: none beyond SHARE_MAX_DAYS, and no Never", async () => {
		useSharingConfig({ shareMaxDays: 7 });
		const server = startFakeSharesServer();
		const { user } = renderDialog();
		const expires = screen.getByRole("combobox", { name: "Expires" });
		await screen.findByRole("option", { name: "In 7 days" });
		await vi.waitFor(() =>
			expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual([
				"In 1 hour",
				"In 1 day",
				"In 7 days",
			]),
		);
		expect(expires).toHaveValue("7d");
		await user.click(screen.getByRole("button", { name: "Create link" }));
		await screen.findByRole("textbox", { name: /Your link/ });
		expect(server.readRequests()).toMatchObject([{ expires: "7d" }]);
	});

	it("picks the longest allowed expiry when a week is beyond SHARE_MAX_DAYS", async () => {
		useSharingConfig({ shareMaxDays: 2 });
		const server = startFakeSharesServer();
		const { user } = renderDialog();
		await vi.waitFor(() =>
			expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual([
				"In 1 hour",
				"In 1 day",
			]),
		);
		expect(screen.getByRole("combobox", { name: "Expires" })).toHaveValue("1d");
		await user.click(screen.getByRole("button", { name: "Create link" }));
		await screen.findByRole("textbox", { name: /Your link/ });
		expect(server.readRequests()).toMatchObject([{ expires: "1d" }]);
	});

	it("says links open only for people signed in where the server keeps them to its own", async () => {
		useSharingConfig({ sharing: "signed-in" });
		startFakeSharesServer();
		renderDialog();
		expect(
			await screen.findByText(/Only people signed in to this server can open the link/),
		).toBeVisible();
		expect(screen.queryByText(/Anyone with the link/)).toBeNull();
	});
});
