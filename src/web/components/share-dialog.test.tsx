import { screen } from "@testing-library/react";
import { createRef } from "react";
import { describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../testing/fakes/fake-auth-server";
import { startFakeSharesServer } from "../testing/fakes/fake-shares-server";
import { renderWithProviders } from "../testing/render-app";
import { ShareDialog } from "./share-dialog";

const GENERATION_ID = "0f8b8e6e-3a55-4c53-9a8a-2f1f6a1f6c2d";

function renderDialog() {
	startFakeAuthServer({ signedInAs: createTestUser() });
	return renderWithProviders(
		<ShareDialog
			generationId={GENERATION_ID}
			imageIndex={2}
			imageCount={4}
			isOpen
			onClose={() => {}}
			returnFocusRef={createRef()}
		/>,
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
});
