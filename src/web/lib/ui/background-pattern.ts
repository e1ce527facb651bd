type BackgroundPattern = "grid";

const DEFAULT_BACKGROUND_PATTERN: BackgroundPattern = "grid";

/** Marks the page body with a background pattern; styles.css draws it from the data attribute. */
export function applyBackgroundPattern(
	body: HTMLElement,
	pattern: BackgroundPattern = DEFAULT_BACKGROUND_PATTERN,
): void {
	// Prerendered pages carry it already: writing it again would make the browser restyle the page.
	if (body.dataset.pattern !== pattern) body.dataset.pattern = pattern;
}
