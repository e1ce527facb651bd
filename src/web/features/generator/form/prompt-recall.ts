// Recall in the prompt box: Alt+Up and Alt+Down step through the person's last prompts, kept on
// the server (GET /api/prompts/recent, asked for when stepping starts); past the newest, the draft
// typed before comes back. Loaded with the generator's settings, never with the first page.
import { type RefObject, useEffect, useRef } from "react";
import { fetchRecentPrompts } from "../../../lib/generations/prompts-requests";

type Recall = {
	/** The prompts being stepped through; null until the first step asks for them. */
	items: string[] | null;
	/** -1 is the draft; 0 the newest prompt. */
	index: number;
	draft: string;
	/** What recall last put in the box: anything else there means the person typed. */
	shown: string | null;
};

/** The box's text after one step from `recall`, or null when there is nowhere to go. */
export function stepRecall(recall: Recall, direction: "older" | "newer"): string | null {
	const items = recall.items ?? [];
	if (direction === "older") {
		if (recall.index + 1 >= items.length) return null;
		recall.index += 1;
		return items[recall.index] ?? null;
	}
	if (recall.index < 0) return null;
	recall.index -= 1;
	return recall.index < 0 ? recall.draft : (items[recall.index] ?? null);
}

/** Alt+Up and Alt+Down in `promptRef`'s box, for a signed-in person. */
export function usePromptRecall(
	promptRef: RefObject<HTMLTextAreaElement | null>,
	onPromptChange: (prompt: string) => void,
	isSignedIn: boolean,
) {
	const recallRef = useRef<Recall>({ items: null, index: -1, draft: "", shown: null });
	const onChangeRef = useRef(onPromptChange);
	useEffect(() => {
		onChangeRef.current = onPromptChange;
	});
	useEffect(() => {
		const box = promptRef.current;
		if (!box || !isSignedIn) return;
		const onKeyDown = (event: KeyboardEvent) => {
			if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
			event.preventDefault();
			const recall = recallRef.current;
			// Typed since the last step: start again from this draft, with the prompts as they are now.
			if (recall.shown !== box.value) {
				recallRef.current = { items: null, index: -1, draft: box.value, shown: null };
			}
			const current = recallRef.current;
			const direction = event.key === "ArrowUp" ? "older" : "newer";
			const step = () => {
				const next = stepRecall(current, direction);
				if (next === null) return;
				current.shown = next;
				onChangeRef.current(next);
			};
			if (current.items) {
				step();
				return;
			}
			void fetchRecentPrompts()
				.then((items) => {
					current.items = items;
					step();
				})
				// Offline or refused: the box keeps what it has, and the next step asks again.
				.catch(() => {});
		};
		box.addEventListener("keydown", onKeyDown);
		return () => box.removeEventListener("keydown", onKeyDown);
	}, [promptRef, isSignedIn]);
}
