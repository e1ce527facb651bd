import { z } from "zod";

/** The signed-in person as the server sends it with the session; `isAdmin` is the server's word. */
export const SessionUserSchema = z.object({
	id: z.string(),
	email: z.string(),
	name: z.string().optional(),
	isAdmin: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const PublicConfigSchema = z.object({
	googleEnabled: z.boolean(),
	imageProvider: z.string(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

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
