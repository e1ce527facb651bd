// The setting a refused start's message names, for the generator's controls to show it beside.

/** A setting a refused start's message may be about. */
export type SettingsField = "model" | "count" | "seed" | "negativePrompt" | "quality" | "style";

// The server's 400 names the field its message is about first (generations.ts, resolve-settings.ts).
const FIELD_MESSAGE_PATTERNS: ReadonlyArray<[RegExp, SettingsField]> = [
	[/^model\b/, "model"],
	[/^count\b/, "count"],
	[/^seed\b/, "seed"],
	[/^(negativePrompt|Negative prompt)\b/, "negativePrompt"],
	[/^quality\b/, "quality"],
	[/^style\b/, "style"],
];

/** The field a refused start's message is about, if it names one of these settings. */
export function readFieldOfMessage(message: string | null): SettingsField | null {
	if (!message) return null;
	return FIELD_MESSAGE_PATTERNS.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}
