import type { Kysely } from "kysely";
import {
	type AccountSettings,
	DEFAULT_ACCOUNT_SETTINGS,
	type LanguageChoice,
	type UpdateAccountSettingsRequest,
} from "../../shared/account/account-settings";
import type { DatabaseSchema } from "../db/schema";

/** A person's settings: their row's, or the defaults while they have changed none. */
export async function readAccountSettings(
	db: Kysely<DatabaseSchema>,
	userId: string,
): Promise<AccountSettings> {
	const row = await db
		.selectFrom("account_settings")
		.select(["theme", "language"])
		.where("user_id", "=", userId)
		.executeTakeFirst();
	return row ?? DEFAULT_ACCOUNT_SETTINGS;
}

/** Changes the settings named, leaving the others as they are; answers them all. */
export async function updateAccountSettings(
	db: Kysely<DatabaseSchema>,
	userId: string,
	changes: UpdateAccountSettingsRequest,
): Promise<AccountSettings> {
	const { theme, language } = changes;
	if (theme === undefined && language === undefined) return readAccountSettings(db, userId);
	return db
		.insertInto("account_settings")
		.values({ user_id: userId, theme, language })
		.onConflict((conflict) =>
			conflict.column("user_id").doUpdateSet({ theme, language, updated_at: new Date() }),
		)
		.returning(["theme", "language"])
		.executeTakeFirstOrThrow();
}

/** The language a person chose ("browser" while they chose none), which e-mails are written in. */
export async function readLanguageSetting(
	db: Kysely<DatabaseSchema>,
	userId: string,
): Promise<LanguageChoice> {
	return (await readAccountSettings(db, userId)).language;
}
