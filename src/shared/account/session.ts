// Plain types, no schemas: the browser reads these on its first page, by hand, without a schema
// library (docs/decisions/005-first-load-budget.md).

import type { SharingMode } from "../history/sharing";

/** The signed-in person as the server sends it with the session; `isAdmin` is the server's word. */
export type SessionUser = {
	id: string;
	email: string;
	name?: string;
	isAdmin: boolean;
	/** Whether the person opened the verification link (Google accounts arrive verified). */
	emailVerified: boolean;
	/**
	 * The account is at the administrator's address but has not claimed it yet (mailed link or
	 * Google): no powers until then, and the web app says what to do.
	 */
	isAdminUnclaimed: boolean;
};

/** `GET /api/config`: what every visitor may know about the server. */
export type PublicConfig = {
	googleEnabled: boolean;
	imageProvider: string;
	/** REQUIRE_EMAIL_VERIFICATION: generating waits until the address is verified. */
	emailVerificationRequired: boolean;
	/**
	 * More than one model is offered: the screens keep room for the model's controls from their
	 * first paint, before the models themselves arrive (GET /api/models).
	 */
	modelChoice: boolean;
	/** Deleting goes to the Trash (TRASH_DAYS above 0): Undo in a toast instead of a question. */
	trash: boolean;
	/** SHARING: `off` hides Share everywhere; `signed-in` links open only for people signed in here. */
	sharing: SharingMode;
	/** SHARE_MAX_DAYS: the longest a link may live, in days; null lets a link never expire. */
	shareMaxDays: number | null;
	/** Enhance's chat endpoint is configured (ENHANCE_*): the prompt box offers Enhance. */
	enhance?: boolean;
};

/** The administrator is the account whose e-mail, trimmed and lowercased, equals the configured one. */
export function isAdminEmail(email: string | null | undefined, adminEmail: string | undefined) {
	if (!email || !adminEmail) return false;
	const normalizedAdmin = adminEmail.trim().toLowerCase();
	return normalizedAdmin.length > 0 && email.trim().toLowerCase() === normalizedAdmin;
}

/** The part of an e-mail before the at-sign, shown in the user menu. */
export function emailLocalPart(email: string): string {
	const at = email.indexOf("@");
	return at === -1 ? email : email.slice(0, at);
}
