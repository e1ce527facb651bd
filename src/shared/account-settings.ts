// The account's own settings (GET and PATCH /api/account/settings): the theme today, in one row per
// person so that later settings join it as columns. zod/mini, since the browser parses the answer
// (docs/decisions/005-first-load-budget.md); no first-page module imports this file.
import { z } from "zod/mini";

/** What a person may choose: follow the system's `prefers-color-scheme`, or one theme always. */
export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const AccountSettingsSchema = z.object({ theme: z.enum(THEME_CHOICES) });
export type AccountSettings = z.infer<typeof AccountSettingsSchema>;

/** `PATCH /api/account/settings`: the settings to change, each optional. */
export const UpdateAccountSettingsRequestSchema = z.strictObject(
	{
		theme: z.optional(
			z.enum(THEME_CHOICES, { error: 'The theme must be "system", "light" or "dark".' }),
		),
	},
	{ error: "Send the settings to change as a JSON object; the one setting is theme." },
);
export type UpdateAccountSettingsRequest = z.infer<typeof UpdateAccountSettingsRequestSchema>;

export const DEFAULT_ACCOUNT_SETTINGS: AccountSettings = { theme: "system" };
