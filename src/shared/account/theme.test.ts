import { describe, expect, it } from "vitest";
import { decideTheme, readThemeChoice, THEME_SCRIPT, THEME_STORAGE_KEY } from "./theme";

/** A page's globals as the inline script sees them, with the system's scheme and storage to set. */
function createPage(options: {
	stored: string | null;
	isSystemDark: boolean;
	storageFails?: boolean;
}) {
	const root = { dataset: {} as Record<string, string> };
	const store = new Map<string, string>();
	if (options.stored !== null) store.set(THEME_STORAGE_KEY, options.stored);
	const schemeListeners: (() => void)[] = [];
	const windowListeners = new Map<string, () => void>();
	const media = {
		matches: options.isSystemDark,
		addEventListener: (_type: string, listener: () => void) => schemeListeners.push(listener),
	};
	const localStorage = {
		getItem: (key: string) => {
			if (options.storageFails) throw new Error("SecurityError: storage is blocked");
			return store.get(key) ?? null;
		},
	};
	const run = new Function(
		"document",
		"matchMedia",
		"localStorage",
		"addEventListener",
		THEME_SCRIPT,
	);
	run(
		{ documentElement: root },
		(query: string) => {
			expect(query).toBe("(prefers-color-scheme: dark)");
			return media;
		},
		localStorage,
		(type: string, listener: () => void) => windowListeners.set(type, listener),
	);
	return {
		theme: () => root.dataset.theme,
		setSystemDark(isDark: boolean) {
			media.matches = isDark;
			for (const listener of schemeListeners) listener();
		},
		storeInAnotherTab(value: string) {
			store.set(THEME_STORAGE_KEY, value);
			windowListeners.get("storage")?.();
		},
	};
}

describe("the theme a page paints in", () => {
	it("is the one chosen, whatever the system's, else the system's", () => {
		expect(decideTheme("dark", false)).toBe("dark");
		expect(decideTheme("light", true)).toBe("light");
		expect(decideTheme("system", true)).toBe("dark");
		expect(decideTheme(null, false)).toBe("light");
		expect(decideTheme("sepia", true)).toBe("dark");
	});

	it("is what the inline script decides before the first paint, for every choice and system", () => {
		for (const stored of [null, "system", "light", "dark", "sepia", ""]) {
			for (const isSystemDark of [false, true]) {
				expect(createPage({ stored, isSystemDark }).theme(), `${stored} ${isSystemDark}`).toBe(
					decideTheme(stored, isSystemDark),
				);
			}
		}
	});

	it("follows the system when the browser refuses its storage", () => {
		expect(createPage({ stored: "light", isSystemDark: true, storageFails: true }).theme()).toBe(
			"dark",
		);
	});

	it("changes with the system's scheme unless a theme is chosen, and with another tab's choice", () => {
		const following = createPage({ stored: null, isSystemDark: false });
		following.setSystemDark(true);
		expect(following.theme()).toBe("dark");

		const chosen = createPage({ stored: "light", isSystemDark: false });
		chosen.setSystemDark(true);
		expect(chosen.theme()).toBe("light");
		chosen.storeInAnotherTab("dark");
		expect(chosen.theme()).toBe("dark");
	});

	it("reads anything stored but light or dark as following the system", () => {
		expect(readThemeChoice("dark")).toBe("dark");
		expect(readThemeChoice("light")).toBe("light");
		expect(readThemeChoice(null)).toBe("system");
		expect(readThemeChoice("Dark")).toBe("system");
	});

	it("stays a few hundred bytes", () => {
		expect(THEME_SCRIPT.length).toBeLessThan(400);
	});
});
