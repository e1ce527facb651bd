// What the settings' controls share: the field a refused start names, and how a label and a
// field's message look (model-select.tsx, segments.tsx, advanced-settings.tsx).

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

export const LABEL_CLASS_NAME = "mb-1.5 block text-sm font-medium text-slate-800";
export const FIELD_MESSAGE_CLASS_NAME = "mt-1.5 text-xs font-medium text-red-700";
