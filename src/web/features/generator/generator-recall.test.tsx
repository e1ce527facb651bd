// Recall in the prompt box (Alt+Up, Alt+Down, the draft back past the newest) and the Recent menu
// (search, use one, remove one or all), over the person's prompts as the server keeps them.
import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import {
	cleanUpGeneratorScreen,
	getPromptBox,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";
import { mswServer } from "../../testing/msw-server";

afterEach(cleanUpGeneratorScreen);

/** The server's last prompts of the person, newest first, with what the page asked of them. */
function serveRecentPrompts(initial: string[]) {
	let prompts = [...initial];
	const removals: unknown[] = [];
	mswServer.use(
		http.get("*/api/prompts/recent", ({ request }) => {
			const search = (new URL(request.url).searchParams.get("q") ?? "").toLowerCase();
			const items = prompts
				.filter((prompt) => prompt.toLowerCase().includes(search))
				.map((prompt) => ({ prompt, lastUsedAt: "2026-11-28T09:00:00.000Z" }));
			return HttpResponse.json({ items });
		}),
		http.post("*/api/prompts/recent/remove", async ({ request }) => {
			const body = (await request.json()) as { prompt?: string; all?: boolean };
			removals.push(body);
			const before = prompts.length;
			prompts = body.all ? [] : prompts.filter((prompt) => prompt !== body.prompt);
			return HttpResponse.json({ success: true, removed: before - prompts.length });
		}),
	);
	return { removals, read: () => prompts };
}

describe("recall in the prompt box", () => {
	it("steps through the last prompts with Alt+Up and Alt+Down, and brings the draft back", async () => {
		startGeneratorApi();
		serveRecentPrompts(["A red fox", "A tea house", "A desert"]);
		const { user } = await openGenerator();
		const box = getPromptBox();
		await user.click(box);
		await user.keyboard("my draft");

		await user.keyboard("{Alt>}{ArrowUp}{/Alt}");
		await waitFor(() => expect(box).toHaveValue("A red fox"));
		await user.keyboard("{Alt>}{ArrowUp}{/Alt}");
		expect(box).toHaveValue("A tea house");
		await user.keyboard("{Alt>}{ArrowUp}{/Alt}{Alt>}{ArrowUp}{/Alt}");
		expect(box).toHaveValue("A desert");
		await user.keyboard("{Alt>}{ArrowDown}{/Alt}");
		expect(box).toHaveValue("A tea house");
		await user.keyboard("{Alt>}{ArrowDown}{/Alt}{Alt>}{ArrowDown}{/Alt}");
		expect(box).toHaveValue("my draft");
		await user.keyboard("{Alt>}{ArrowDown}{/Alt}");
		expect(box).toHaveValue("my draft");
	});
});

describe("the Recent menu", () => {
	it("searches the last prompts and puts the one chosen in the prompt box", async () => {
		startGeneratorApi();
		serveRecentPrompts(["A red fox", "A tea house"]);
		const { user } = await openGenerator();
		await user.click(screen.getByRole("button", { name: "Recent" }));
		const search = screen.getByRole("searchbox", { name: "Search recent prompts" });
		expect(search).toHaveFocus();
		const list = await screen.findByRole("list", { name: "Recent prompts" });
		expect(within(list).getAllByRole("listitem")).toHaveLength(2);

		await user.keyboard("TEA");
		await waitFor(() =>
			expect(
				within(screen.getByRole("list", { name: "Recent prompts" })).getAllByRole("listitem"),
			).toHaveLength(1),
		);
		await user.click(screen.getByRole("button", { name: "A tea house" }));
		expect(getPromptBox()).toHaveValue("A tea house");
		expect(getPromptBox()).toHaveFocus();
		expect(screen.getByRole("button", { name: "Recent" })).toHaveAttribute(
			"aria-expanded",
			"false",
		);
	});

	it("removes one prompt, then all, and closes with Escape", async () => {
		startGeneratorApi();
		const server = serveRecentPrompts(["A red fox", "A tea house"]);
		const { user } = await openGenerator();
		const toggle = screen.getByRole("button", { name: "Recent" });
		await user.click(toggle);
		await user.click(await screen.findByRole("button", { name: "Remove “A red fox”" }));
		await waitFor(() => expect(screen.queryByRole("button", { name: "A red fox" })).toBeNull());
		expect(server.removals).toEqual([{ prompt: "A red fox" }]);

		await user.click(screen.getByRole("button", { name: "Remove all" }));
		expect(await screen.findByText("No recent prompts yet.")).toBeInTheDocument();
		expect(server.removals.at(-1)).toEqual({ all: true });

		await user.keyboard("{Escape}");
		expect(toggle).toHaveAttribute("aria-expanded", "false");
		expect(toggle).toHaveFocus();
	});
});
