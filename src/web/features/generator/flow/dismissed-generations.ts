// Generations the person cancelled or cleared in this tab. The server finishes them anyway (they
// land in the history), but coming back to the generator must not pick them up again as if the
// person were still waiting for them. Kept per tab, like the wait itself; a few are enough.
const STORAGE_KEY = "atelier:generator:dismissed";
const MAX_REMEMBERED = 20;

export function readDismissedGenerations(): Set<string> {
	try {
		const stored: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? "[]");
		return new Set(
			Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : [],
		);
	} catch {
		// Storage can be unavailable (privacy modes) or hold something else: remember nothing.
		return new Set();
	}
}

export function rememberDismissedGeneration(id: string): void {
	try {
		const ids = [...readDismissedGenerations(), id].slice(-MAX_REMEMBERED);
		window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(ids));
	} catch {
		// Without storage the generation may be picked up again after a reload; nothing worse.
	}
}
