// The browser tab's own word on a generation: its percent in the title ("42% · Atelier") and a
// progress mark in the favicon while it runs, then "Done · Atelier" or "Failed · Atelier" when it
// finishes in a tab nobody is looking at, until the tab is seen again. One home for the title and
// the favicon; loaded with the generation flow, never with the first page.

const APP_NAME = "Atelier";
const ACCENT = "#6d28d9";

/** How a generation ended, as the tab's title says it. */
export type TabOutcome = "done" | "failed";

const OUTCOME_WORDS: Record<TabOutcome, string> = { done: "Done", failed: "Failed" };

type Saved = { title: string; icon: string | null };

// What the tab showed before we changed it, so it can be put back exactly.
let saved: Saved | null = null;
let stopWaitingForSight: (() => void) | null = null;

function findIconLink(): HTMLLinkElement | null {
	return document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
}

function saveUsualTab(): void {
	if (saved) return;
	saved = { title: document.title, icon: findIconLink()?.getAttribute("href") ?? null };
}

/** A ring filled to `percent` around the app's mark, as an SVG data URL. */
export function drawProgressIcon(percent: number): string {
	const radius = 13;
	const circumference = 2 * Math.PI * radius;
	const filled = (Math.min(100, Math.max(0, percent)) / 100) * circumference;
	const svg =
		'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
		`<circle cx="16" cy="16" r="${radius}" fill="none" stroke="#e2e8f0" stroke-width="5"/>` +
		`<circle cx="16" cy="16" r="${radius}" fill="none" stroke="${ACCENT}" stroke-width="5" ` +
		`stroke-dasharray="${filled.toFixed(2)} ${circumference.toFixed(2)}" transform="rotate(-90 16 16)"/>` +
		`<circle cx="16" cy="16" r="5" fill="${ACCENT}"/></svg>`;
	return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function setIcon(href: string | null): void {
	const link = findIconLink();
	if (!link) return;
	if (href === null) link.removeAttribute("href");
	else link.setAttribute("href", href);
}

/** Puts back the tab's usual title and favicon; nothing when we changed neither. */
export function clearTabStatus(): void {
	stopWaitingForSight?.();
	stopWaitingForSight = null;
	if (!saved) return;
	document.title = saved.title;
	setIcon(saved.icon);
	saved = null;
}

/** While a generation runs: "42% · Atelier" and the favicon's ring at 42 percent. */
export function showTabProgress(percent: number): void {
	stopWaitingForSight?.();
	stopWaitingForSight = null;
	saveUsualTab();
	const rounded = Math.round(Math.min(100, Math.max(0, percent)));
	document.title = `${rounded}% · ${APP_NAME}`;
	setIcon(drawProgressIcon(rounded));
}

/**
 * The generation finished. A visible tab returns to its usual title at once; a hidden one says
 * "Done · Atelier" or "Failed · Atelier" until it is seen.
 */
export function showTabOutcome(outcome: TabOutcome): void {
	if (document.visibilityState !== "hidden") {
		clearTabStatus();
		return;
	}
	saveUsualTab();
	document.title = `${OUTCOME_WORDS[outcome]} · ${APP_NAME}`;
	setIcon(saved?.icon ?? null);
	stopWaitingForSight?.();
	const onVisibilityChange = () => {
		if (document.visibilityState === "visible") clearTabStatus();
	};
	document.addEventListener("visibilitychange", onVisibilityChange);
	stopWaitingForSight = () => document.removeEventListener("visibilitychange", onVisibilityChange);
}
