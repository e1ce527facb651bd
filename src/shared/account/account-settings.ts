// The account's own settings (GET and PATCH /api/account/settings): the theme and the language, in
// one row per person so that later settings join it as columns. zod/mini, since the browser parses the answer
// (docs/decisions/005-first-load-budget.md); no first-page module imports this file.
import { z } from "zod/mini";
import { LANGUAGES } from "../i18n/languages";

/** What a person may choose: follow the system's `prefers-color-scheme`, or one theme always. */
export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** The language: the browser's (its Accept-Language, decision 037), or one always. */
export const LANGUAGE_CHOICES = ["browser", ...LANGUAGES] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

export const AccountSettingsSchema = z.object({
	theme: z.enum(THEME_CHOICES),
	language: z.enum(LANGUAGE_CHOICES),
});
export type AccountSettings = z.infer<typeof AccountSettingsSchema>;

/** `PATCH /api/account/settings`: the settings to change, each optional. */
export const UpdateAccountSettingsRequestSchema = z.strictObject(
	{
		theme: z.optional(
			z.enum(THEME_CHOICES, { error: 'The theme must be "system", "light" or "dark".' }),
		),
		language: z.optional(
			z.enum(LANGUAGE_CHOICES, {
				error: `The language must be ${LANGUAGE_CHOICES.map((choice) => `"${choice}"`).join(", ")}.`,
			}),
		),
	},
	{ error: "Send the settings to change as a JSON object: theme, language or both." },
);
export type UpdateAccountSettingsRequest = z.infer<typeof UpdateAccountSettingsRequestSchema>;

export const DEFAULT_ACCOUNT_SETTINGS: AccountSettings = { theme: "system", language: "browser" };
