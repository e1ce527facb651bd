type BackgroundPattern = "grid";

const DEFAULT_BACKGROUND_PATTERN: BackgroundPattern = "grid";

/** Marks the page body with a background pattern; styles.css draws it from the data attribute. */
export function applyBackgroundPattern(
	body: HTMLElement,
	pattern: BackgroundPattern = DEFAULT_BACKGROUND_PATTERN,
): void {
	body.dataset.pattern = pattern;
}
