import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_BASE_URL } from "./constants";
import { readMailLink, waitForMail } from "./journeys";

/**
 * Makes the administrator as an operator does on a fresh install: signs up with ADMIN_EMAIL, opens
 * the claim link mailed to it (from the journeys' SMTP inbox) and chooses the password there.
 * Until then the account has no powers. Run once, by the global setup, before any journey: a claim
 * ends every session made before it, so journeys running beside each other must not claim.
 */
export async function claimAdministrator(): Promise<void> {
	const since = Date.now();
	const headers = { origin: E2E_BASE_URL, "content-type": "application/json" };
	const signUp = await fetch(new URL("/api/auth/sign-up/email", E2E_BASE_URL), {
		method: "POST",
		headers,
		body: JSON.stringify({
			email: E2E_ADMIN_EMAIL,
			password: "chosen before the claim",
			name: "admin",
		}),
	});
	if (!signUp.ok) throw new Error(`the administrator's sign-up answered ${signUp.status}`);
	const mail = await waitForMail(E2E_ADMIN_EMAIL, since);
	if (mail.subject !== "Claim the Atelier administrator's account") {
		throw new Error(`expected the claim mail, got "${mail.subject}"`);
	}
	const landing = await fetch(readMailLink(mail), { redirect: "manual" });
	const token = new URL(landing.headers.get("location") ?? "", E2E_BASE_URL).searchParams.get(
		"token",
	);
	const claim = await fetch(new URL("/api/auth/reset-password", E2E_BASE_URL), {
		method: "POST",
		headers,
		body: JSON.stringify({ token, newPassword: E2E_ADMIN_PASSWORD }),
	});
	if (!claim.ok) throw new Error(`the administrator's claim answered ${claim.status}`);
}
