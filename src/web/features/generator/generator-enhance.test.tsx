// Enhance in the generator: shown only when the server has it, a rewrite proposed beside the prompt
// with Use, Edit and Discard, the prompt changed by Use alone, Ctrl+Z after Use, and the original
// sent beside the rewrite when a generation is started from it.
import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import { errorBody } from "../../../shared/core/errors";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";
import { mswServer } from "../../testing/msw-server";
import { findToast } from "../../testing/toasts";

afterEach(cleanUpGeneratorScreen);

const REWRITE = ", golden hour, highly detailed";

/** A server with Enhance configured: each rewrite adds REWRITE, or fails as `failure` says. */
function serveEnhance(failure?: { status: number; code: "ENHANCE_REFUSED" | "RATE_LIMITED" }) {
	const asked: unknown[] = [];
	mswServer.use(
		http.get("*/api/config", () =>
			HttpResponse.json({ googleEnabled: false, imageProvider: "local", enhance: true }),
		),
		http.post("*/api/prompts/enhance", async ({ request }) => {
			const body = (await request.json()) as { prompt: string; translate?: boolean };
			asked.push(body);
			if (failure) {
				return HttpResponse.json(
					{ success: false, error: errorBody(failure.code) },
					{ status: failure.status },
				);
			}
			const prefix = body.translate ? "In English: " : "";
			return HttpResponse.json({ prompt: `${prefix}${body.prompt}${REWRITE}` });
		}),
	);
	return { asked };
}

async function typePrompt(user: Awaited<ReturnType<typeof openGenerator>>["user"], text: string) {
	await user.click(getPromptBox());
	await user.keyboard(text);
}

async function findProposal() {
	return screen.findByRole("region", { name: "Enhanced prompt" });
}

describe("Enhance", () => {
	it("is not offered when the server has no Enhance endpoint", async () => {
		startGeneratorApi();
		await openGenerator();
		expect(screen.queryByRole("button", { name: "Enhance" })).toBeNull();
	});

	it("proposes a rewrite beside the prompt, which Use puts in the box and Ctrl+Z takes back", async () => {
		const api = startGeneratorApi();
		const enhance = serveEnhance();
		const { user } = await openGenerator();
		await typePrompt(user, "A red fox");
		await user.click(await screen.findByRole("button", { name: "Enhance" }));

		const proposal = await findProposal();
		expect(within(proposal).getByText(`A red fox${REWRITE}`)).toBeVisible();
		// The original beside the rewrite, to compare.
		expect(within(proposal).getByRole("heading", { name: "Your prompt" })).toBeVisible();
		expect(within(proposal).getByText("A red fox")).toBeVisible();
		// Proposed only: the prompt box is as it was, and the heading has the focus.
		expect(getPromptBox()).toHaveValue("A red fox");
		await waitFor(() =>
			expect(within(proposal).getByRole("heading", { name: "Enhanced prompt" })).toHaveFocus(),
		);
		expect(enhance.asked).toEqual([{ prompt: "A red fox" }]);

		await user.click(within(proposal).getByRole("button", { name: "Use" }));
		expect(getPromptBox()).toHaveValue(`A red fox${REWRITE}`);
		expect(getPromptBox()).toHaveFocus();
		expect(screen.queryByRole("region", { name: "Enhanced prompt" })).toBeNull();

		await user.keyboard("{Control>}z{/Control}");
		expect(getPromptBox()).toHaveValue("A red fox");

		// Used again and generated: the start sends the rewrite and the prompt it rewrote.
		await user.click(screen.getByRole("button", { name: "Enhance" }));
		await user.click(within(await findProposal()).getByRole("button", { name: "Use" }));
		await user.click(getGenerateButton());
		await waitFor(() => expect(api.readCreateRequests()).toHaveLength(1));
		expect(api.readCreateRequests()[0]).toMatchObject({
			prompt: `A red fox${REWRITE}`,
			originalPrompt: "A red fox",
		});
	});

	it("lets the rewrite be edited before it is used, and Discard leaves the prompt alone", async () => {
		startGeneratorApi();
		serveEnhance();
		const { user } = await openGenerator();
		await typePrompt(user, "A tea house");
		await user.click(await screen.findByRole("button", { name: "Enhance" }));
		let proposal = await findProposal();
		await user.click(within(proposal).getByRole("button", { name: "Edit" }));
		const editor = within(proposal).getByRole("textbox", { name: "Enhanced prompt" });
		expect(editor).toHaveFocus();
		await user.clear(editor);
		await user.keyboard("A tea house in the rain");
		expect(getPromptBox()).toHaveValue("A tea house");
		await user.click(within(proposal).getByRole("button", { name: "Use" }));
		expect(getPromptBox()).toHaveValue("A tea house in the rain");

		await user.click(screen.getByRole("button", { name: "Enhance" }));
		proposal = await findProposal();
		await user.click(within(proposal).getByRole("button", { name: "Discard" }));
		expect(screen.queryByRole("region", { name: "Enhanced prompt" })).toBeNull();
		expect(getPromptBox()).toHaveValue("A tea house in the rain");
		expect(screen.getByRole("button", { name: "Enhance" })).toHaveFocus();
	});

	it("asks for English when Translate to English is ticked, and Escape discards", async () => {
		startGeneratorApi();
		const enhance = serveEnhance();
		const { user } = await openGenerator();
		await typePrompt(user, "un renard");
		await user.click(await screen.findByRole("checkbox", { name: "Translate to English" }));
		await user.click(screen.getByRole("button", { name: "Enhance" }));
		const proposal = await findProposal();
		expect(within(proposal).getByText(`In English: un renard${REWRITE}`)).toBeVisible();
		expect(enhance.asked).toEqual([{ prompt: "un renard", translate: true }]);
		await user.keyboard("{Escape}");
		expect(screen.queryByRole("region", { name: "Enhanced prompt" })).toBeNull();
		expect(getPromptBox()).toHaveValue("un renard");
	});

	it("says the server's message when the rewrite is refused, and keeps the prompt", async () => {
		startGeneratorApi();
		serveEnhance({ status: 422, code: "ENHANCE_REFUSED" });
		const { user } = await openGenerator();
		await typePrompt(user, "A harbour");
		await user.click(await screen.findByRole("button", { name: "Enhance" }));
		await findToast(
			"The assistant would not rewrite this prompt. Please change it or write it yourself.",
		);
		expect(screen.queryByRole("region", { name: "Enhanced prompt" })).toBeNull();
		expect(getPromptBox()).toHaveValue("A harbour");
	});
});
