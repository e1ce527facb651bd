// What a card's menu does outside the history's own state: open the provider's polling URL, copy
// the prompt. The page hands them to every card with the rest of GenerationCardActions.
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	historyCopyFailed,
	historyPollingMissing,
	historyPromptCopied,
} from "../../../../shared/i18n/messages";
import { showToast } from "../../../lib/ui/toast";

/** Only web addresses open: a stored URL is never run as a script. */
function resolvePollingUrl(value: string | null): string | null {
	if (!value) return null;
	try {
		const url = new URL(value, window.location.origin);
		return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
	} catch {
		return null;
	}
}

/** Opens the generation's polling URL in a new tab, or says there is none to open. */
export function openPollingUrl(generation: Generation): void {
	const url = resolvePollingUrl(generation.polling_url);
	if (!url) {
		void showToast("error", historyPollingMissing());
		return;
	}
	window.open(url, "_blank", "noopener,noreferrer");
}

/** Copies the prompt to the clipboard and says whether it worked. */
export async function copyPrompt(generation: Generation): Promise<void> {
	try {
		await navigator.clipboard.writeText(generation.prompt);
		void showToast("success", historyPromptCopied());
	} catch {
		void showToast("error", historyCopyFailed());
	}
}
