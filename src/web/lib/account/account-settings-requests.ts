// The account's own settings (/api/account/settings), for the user menu: a module of its own, so
// that the menu's chunk does not take the account page's requests with it.
import {
	type AccountSettings,
	AccountSettingsSchema,
	type UpdateAccountSettingsRequest,
} from "../../../shared/account/account-settings";
import { requestApi } from "../api/api-client";

export const ACCOUNT_SETTINGS_QUERY_KEY = ["account-settings"] as const;

export function readAccountSettings(): Promise<AccountSettings> {
	return requestApi("/api/account/settings", AccountSettingsSchema);
}

export function updateAccountSettings(
	changes: UpdateAccountSettingsRequest,
): Promise<AccountSettings> {
	return requestApi("/api/account/settings", AccountSettingsSchema, {
		method: "PATCH",
		body: JSON.stringify(changes),
	});
}
