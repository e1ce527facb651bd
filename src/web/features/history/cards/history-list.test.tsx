import { act, render, screen } from "@testing-library/react";
import { createRef } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Generation } from "../../../../shared/generations/generation-responses";
import type { DateGroup } from "../../../../shared/history/date-groups";
import { createTestGeneration } from "../../../testing/fakes/test-generations";
import type { GenerationCardActions } from "./generation-card";
import { HistoryList } from "./history-list";

// jsdom lays nothing out, so the list is given what a browser would report: a 1,000 px wide list
// (three columns, 20 px apart, cards 320 wide) at the top of the document, in a 768 px window. No
// card has a height to measure, so the estimates hold: a row is 320 + 162 = 482 tall, a day
// heading 48, days 32 apart.
const ROW_PITCH = 482 + 20;
const HEADING = 48;
const GROUP_GAP = 32;

const ACTIONS: GenerationCardActions = {
	onPreview: () => {},
	onOpenPolling: () => {},
	onDelete: () => {},
	onToggleFavorite: () => {},
	onRerun: () => {},
	onImageAction: () => {},
	onReuse: () => {},
	onCopyPrompt: () => {},
	onSelect: () => {},
};

function createDay(label: string, count: number, prefix = label): DateGroup<Generation> {
	return {
		key: label,
		label,
		items: Array.from({ length: count }, (_, index) =>
			createTestGeneration({ prompt: `${prefix} ${index + 1}` }),
		),
	};
}

function readDrawnPrompts(): string[] {
	return screen.queryAllByRole("article").map((card) => card.querySelector("p")?.textContent ?? "");
}

describe("HistoryList", () => {
	const scroll = { y: 0 };

	beforeEach(() => {
		scroll.y = 0;
		vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1000);
		vi.spyOn(window, "scrollY", "get").mockImplementation(() => scroll.y);
		// Every element sits at the top of the document, so its box moves up as the page scrolls.
		vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(
			() => new DOMRect(0, -scroll.y, 1000, 0),
		);
		vi.spyOn(window, "scrollBy").mockImplementation(((_x: number, y: number) => {
			scroll.y += y;
		}) as typeof window.scrollBy);
	});

	afterEach(() => {
		vi.restoreAllMocks();
	});

	function scrollTo(y: number) {
		act(() => {
			scroll.y = y;
			window.dispatchEvent(new Event("scroll"));
		});
	}

	function renderList(groups: DateGroup<Generation>[]) {
		const containerRef = createRef<HTMLDivElement>();
		const view = render(
			<HistoryList
				groups={groups}
				isOwnerShown={false}
				actions={ACTIONS}
				containerRef={containerRef}
			/>,
		);
		return {
			...view,
			containerRef,
			update: (next: DateGroup<Generation>[]) =>
				view.rerender(
					<HistoryList
						groups={next}
						isOwnerShown={false}
						actions={ACTIONS}
						containerRef={containerRef}
					/>,
				),
		};
	}

	it("keeps the full height but draws only the rows within a screen of the viewport", () => {
		const { containerRef } = renderList([createDay("Jan 5, 2025", 300)]);

		expect(containerRef.current?.style.height).toBe(`${HEADING + 100 * ROW_PITCH - 20}px`);
		// The window and 800 px below it: rows 0 to 3.
		expect(readDrawnPrompts()).toEqual(
			Array.from({ length: 12 }, (_, index) => `Jan 5, 2025 ${index + 1}`),
		);

		scrollTo(20 * ROW_PITCH);

		const drawn = readDrawnPrompts();
		expect(drawn.length).toBeLessThanOrEqual(18);
		expect(drawn).toContain("Jan 5, 2025 61");
		expect(drawn).not.toContain("Jan 5, 2025 1");
		const card = screen.getByRole("article", { name: "Jan 5, 2025 61" });
		expect(card.closest("li")).toHaveAttribute("aria-posinset", "61");
		expect(card.closest("li")).toHaveAttribute("aria-setsize", "300");
		expect(card.closest("li")?.style.top).toBe(`${20 * ROW_PITCH}px`);
	});

	it("keeps the first card in view in place when a new day arrives above it", () => {
		const today = createDay("Jan 5, 2025", 60);
		const { update } = renderList([today]);
		scrollTo(10 * ROW_PITCH);
		expect(window.scrollBy).not.toHaveBeenCalled();

		update([createDay("Jan 6, 2025", 1), today]);

		// One more heading, one more row and the space between the days.
		expect(window.scrollBy).toHaveBeenCalledWith(0, HEADING + 482 + GROUP_GAP);
		expect(scroll.y).toBe(10 * ROW_PITCH + HEADING + 482 + GROUP_GAP);
	});

	it("keeps the first card in view in place when cards above it are deleted", () => {
		const today = createDay("Jan 5, 2025", 60);
		const { update } = renderList([today]);
		scrollTo(10 * ROW_PITCH + 100);

		update([{ ...today, items: today.items.slice(3) }]);

		expect(window.scrollBy).toHaveBeenCalledWith(0, -ROW_PITCH);
		expect(readDrawnPrompts()).toContain("Jan 5, 2025 31");
	});

	it("does not move the view at the top of the list, so new cards show", () => {
		const today = createDay("Jan 5, 2025", 6);
		const { update } = renderList([today]);

		update([createDay("Jan 6, 2025", 1, "New"), today]);

		expect(window.scrollBy).not.toHaveBeenCalled();
		expect(readDrawnPrompts()[0]).toBe("New 1");
	});
});
