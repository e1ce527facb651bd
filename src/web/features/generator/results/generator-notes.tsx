// The notes under Generate: the keyboard shortcuts and the offline engine's. Prerendered with the
// page and hydrated once this module has loaded (generator-page.tsx loads it on demand): they
// answer nothing, so the first page need not carry them (decision 005).
import { Cpu } from "lucide-react";
import { useSyncExternalStore } from "react";
import {
	generatorOfflineEngine,
	generatorOfflineEngineNote,
	generatorShortcutClear,
	generatorShortcutGenerate,
	generatorShortcutPrompt,
	generatorShortcutsIntro,
	keyControl,
} from "../../../../shared/i18n/messages";
import { usePublicConfig } from "../../../lib/api/public-config";

function isApplePlatform(): boolean {
	return /Mac|iPhone|iPad/.test(navigator.platform);
}

function subscribeToNothing(): () => void {
	return () => {};
}

/**
 * The platform's command key. The prerendered page says Ctrl (Strg in German) (there is no platform at build time);
 * React hydrates with that, then shows ⌘ on Apple devices.
 */
function useCommandKey(): string {
	const isApple = useSyncExternalStore(subscribeToNothing, isApplePlatform, () => false);
	return isApple ? "⌘" : keyControl();
}

// Key caps, written as they are printed on the keys, in every language.
const ENTER_KEY = "Enter";
const ESCAPE_KEY = "Esc";
const PROMPT_KEY = "K";

function Key({ children }: { children: string }) {
	return (
		<kbd className="rounded border border-slate-300 bg-white px-1 py-px font-sans text-[0.6875rem] font-medium text-slate-700 shadow-[0_1px_0_var(--color-slate-300)]">
			{children}
		</kbd>
	);
}

/** The keyboard shortcuts, for screens wide enough to suggest a keyboard. */
function ShortcutHints() {
	const command = useCommandKey();
	return (
		<p className="hidden flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 sm:flex">
			<span>{generatorShortcutsIntro()}</span>
			<span className="inline-flex items-center gap-1">
				<Key>{command}</Key>+<Key>{ENTER_KEY}</Key> {generatorShortcutGenerate()}
			</span>
			<span className="inline-flex items-center gap-1">
				<Key>{ESCAPE_KEY}</Key> {generatorShortcutClear()}
			</span>
			<span className="inline-flex items-center gap-1">
				<Key>{command}</Key>+<Key>{PROMPT_KEY}</Key> {generatorShortcutPrompt()}
			</span>
		</p>
	);
}

/** Says so when the built-in offline engine makes the images, as it does out of the box. */
function OfflineEngineNote() {
	const { data: config } = usePublicConfig();
	if (config?.imageProvider !== "local") return null;
	return (
		<p className="flex items-start gap-2 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset">
			<Cpu aria-hidden="true" className="mt-px size-3.5 shrink-0 text-slate-500" />
			<span>
				<strong className="font-semibold text-slate-700">{generatorOfflineEngine()}</strong>{" "}
				{generatorOfflineEngineNote()}
			</span>
		</p>
	);
}

export function GeneratorNotes() {
	return (
		<>
			<ShortcutHints />
			<OfflineEngineNote />
		</>
	);
}
