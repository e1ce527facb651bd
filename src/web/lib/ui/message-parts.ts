// A catalogue message with an element inside its sentence (a link, a <code>): the message is
// written with a marker as that parameter and split around it, so each language keeps its own
// word order while the element stays a React element.

/** A character no catalogue text holds (Unicode's private use area). */
export const ELEMENT_MARKER = "\uE000";

/** The texts before and after the marker (and between markers, where there are several). */
export function splitAtElements(text: string): string[] {
	return text.split(ELEMENT_MARKER);
}
