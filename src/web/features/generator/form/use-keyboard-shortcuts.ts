import { useEffect, useRef } from "react";

type Shortcuts = {
	onGenerate: () => void;
	onClear: () => void;
	onFocusPrompt: () => void;
	/** Off while something else owns the keyboard, such as the image preview. */
	isEnabled: boolean;
};

const TEXT_INPUT_TYPES = new Set([
	"text",
	"search",
	"email",
	"password",
	"url",
	"tel",
	"number",
	"date",
	"datetime-local",
	"month",
	"time",
	"week",
]);

/** Whether the key went to a field the person is typing in, where the shortcuts stay quiet. */
function isInputField(target: EventTarget | null): boolean {
	if (!(target instanceof HTMLElement)) return false;
	if (target.isContentEditable) return true;
	if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
	return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type);
}

/**
 * The generator's keyboard shortcuts (SPEC.md section 2), active outside input fields:
 * Ctrl or Cmd + Enter generates, Escape clears the prompt and result, Ctrl or Cmd + K focuses the
 * prompt. A key another control already handled (a menu closing on Escape) is left alone.
 */
export function useKeyboardShortcuts(shortcuts: Shortcuts): void {
	const latest = useRef(shortcuts);
	useEffect(() => {
		latest.current = shortcuts;
	});

	useEffect(() => {
		function handleKeyDown(event: KeyboardEvent) {
			const { onGenerate, onClear, onFocusPrompt, isEnabled } = latest.current;
			if (!isEnabled || event.defaultPrevented || event.isComposing) return;
			if (isInputField(event.target)) return;
			const hasCommand = event.ctrlKey || event.metaKey;
			if (hasCommand && !event.altKey && event.key === "Enter") {
				event.preventDefault();
				onGenerate();
			} else if (hasCommand && !event.altKey && event.key.toLowerCase() === "k") {
				// Browsers use Ctrl+K for their search box; on this page it means the prompt.
				event.preventDefault();
				onFocusPrompt();
			} else if (event.key === "Escape" && !hasCommand && !event.altKey && !event.shiftKey) {
				onClear();
			}
		}
		document.addEventListener("keydown", handleKeyDown);
		return () => document.removeEventListener("keydown", handleKeyDown);
	}, []);
}
