import type { Kysely } from "kysely";
import {
	type AccountSettings,
	DEFAULT_ACCOUNT_SETTINGS,
	type UpdateAccountSettingsRequest,
} from "../../shared/account-settings";
import type { DatabaseSchema } from "../db/schema";

/** A person's settings: their row's, or the defaults while they have changed none. */
export async function readAccountSettings(
	db: Kysely<DatabaseSchema>,
	userId: string,
): Promise<AccountSettings> {
	const row = await db
		.selectFrom("account_settings")
		.select(["theme"])
		.where("user_id", "=", userId)
		.executeTakeFirst();
	return row ? { theme: row.theme } : DEFAULT_ACCOUNT_SETTINGS;
}

/** Changes the settings named, leaving the others as they are; answers them all. */
export async function updateAccountSettings(
	db: Kysely<DatabaseSchema>,
	userId: string,
	changes: UpdateAccountSettingsRequest,
): Promise<AccountSettings> {
	if (changes.theme === undefined) return readAccountSettings(db, userId);
	const row = await db
		.insertInto("account_settings")
		.values({ user_id: userId, theme: changes.theme })
		.onConflict((conflict) =>
			conflict.column("user_id").doUpdateSet({ theme: changes.theme, updated_at: new Date() }),
		)
		.returning(["theme"])
		.executeTakeFirstOrThrow();
	return { theme: row.theme };
}
