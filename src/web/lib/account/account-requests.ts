// The account's calls: Better Auth's own endpoints through its client (loaded on demand), and
// Atelier's account routes through the API client.

import {
	type ApiToken,
	ApiTokenListSchema,
	type CreateApiTokenRequest,
	type CreatedApiToken,
	CreatedApiTokenSchema,
	RevokeApiTokenResponseSchema,
} from "../../../shared/account/api-tokens";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { MIN_PASSWORD_LENGTH } from "../../../shared/core/constants";
import { errorMessage } from "../../../shared/core/errors";
import {
	accountRefusedLinkUsed,
	accountRefusedNoPassword,
	accountRefusedWrongPassword,
	passwordTooShort,
} from "../../../shared/i18n/messages";
import {
	CreatedWebhookSchema,
	type CreateWebhookRequest,
	QueuedWebhookDeliverySchema,
	type WebhookDelivery,
	WebhookDeliveryListSchema,
	type WebhookEndpoint,
	WebhookEndpointListSchema,
} from "../../../shared/notifications/webhooks";
import { requestApi } from "../api/api-client";
import { ApiError, fetchApiJson } from "../api/api-fetch";
import { loadAuthClient } from "./auth-client";
import { AuthActionError, toAuthActionError } from "./auth-errors";

/** Where the browser downloads the ZIP of everything; a plain link, so the download streams to disk. */
export const EXPORT_URL = "/api/account/export";

// Better Auth's codes whose own message is not the clearest thing to tell a person.
const MESSAGES_BY_CODE: Record<string, () => string> = {
	INVALID_TOKEN: accountRefusedLinkUsed,
	INVALID_PASSWORD: accountRefusedWrongPassword,
	CREDENTIAL_ACCOUNT_NOT_FOUND: accountRefusedNoPassword,
	PASSWORD_TOO_SHORT: () => passwordTooShort({ count: MIN_PASSWORD_LENGTH }),
};

/** The error the auth client returned, in the clearest words known for its code, or a fallback. */
function toAccountActionError(error: unknown): AuthActionError {
	const refused = toAuthActionError(error);
	const clearer = refused.code ? MESSAGES_BY_CODE[refused.code]?.() : undefined;
	const message = clearer ?? refused.serverMessage ?? errorMessage("UNKNOWN_ERROR");
	return new AuthActionError(message, refused.code);
}

async function callAuth<T>(
	call: (
		client: Awaited<ReturnType<typeof loadAuthClient>>,
	) => Promise<{ data: T; error: unknown }>,
): Promise<NonNullable<T>> {
	let client: Awaited<ReturnType<typeof loadAuthClient>>;
	try {
		client = await loadAuthClient();
	} catch {
		throw new AuthActionError(errorMessage("NETWORK_ERROR"), "NETWORK_ERROR");
	}
	const { data, error } = await call(client);
	if (error || data === null || data === undefined) throw toAccountActionError(error);
	return data;
}

export async function requestPasswordReset(email: string): Promise<void> {
	await callAuth((client) =>
		client.requestPasswordReset({ email, redirectTo: APP_PATHS["reset-password"] }),
	);
}

export async function resetPassword(token: string, newPassword: string): Promise<void> {
	await callAuth((client) => client.resetPassword({ token, newPassword }));
}

export async function sendVerificationEmail(email: string): Promise<void> {
	await callAuth((client) =>
		client.sendVerificationEmail({ email, callbackURL: APP_PATHS["verify-email"] }),
	);
}

/**
 * Changes the password; with `isSigningOutOthers`, as a reset does, every other device is signed
 * out and every API token and webhook made before ends (the server's take-back).
 */
export async function changePassword(
	currentPassword: string,
	newPassword: string,
	isSigningOutOthers: boolean,
): Promise<void> {
	await callAuth((client) =>
		client.changePassword({
			currentPassword,
			newPassword,
			revokeOtherSessions: isSigningOutOthers,
		}),
	);
}

/** A signed-in device as the account page shows it. */
type DeviceSession = {
	id: string;
	userAgent: string | null;
	ipAddress: string | null;
	createdAt: Date;
	lastActiveAt: Date;
};

export async function listDeviceSessions(): Promise<DeviceSession[]> {
	const sessions = await callAuth((client) => client.listSessions());
	return sessions.map((session) => ({
		id: session.id,
		userAgent: session.userAgent ?? null,
		ipAddress: session.ipAddress ?? null,
		createdAt: new Date(session.createdAt),
		lastActiveAt: new Date(session.updatedAt),
	}));
}

export async function signOutOtherDevices(): Promise<void> {
	await callAuth((client) => client.revokeOtherSessions());
}

/** Whether the person has a password to change (an account made with Google has none). */
export async function readHasPassword(): Promise<boolean> {
	const accounts = await callAuth((client) => client.listAccounts());
	return accounts.some((account) => account.providerId === "credential");
}

/** Deletes the account; the server asks for the e-mail, typed, as the confirmation. */
export async function deleteAccount(typedEmail: string): Promise<void> {
	try {
		await fetchApiJson("/api/account/delete", {
			method: "POST",
			body: JSON.stringify({ email: typedEmail }),
		});
	} catch (error) {
		if (error instanceof ApiError) throw new AuthActionError(error.message, error.code);
		throw error;
	}
}

/** The person's API tokens, newest first; never the tokens themselves. */
export async function listApiTokens(): Promise<ApiToken[]> {
	return (await requestApi("/api/account/tokens", ApiTokenListSchema)).tokens;
}

/** Makes a token; its answer is the only time the token itself is shown. */
export async function createApiToken(request: CreateApiTokenRequest): Promise<CreatedApiToken> {
	return requestApi("/api/account/tokens", CreatedApiTokenSchema, {
		method: "POST",
		body: JSON.stringify(request),
	});
}

/** Ends a token at once: scripts using it are refused from now on. */
export async function revokeApiToken(id: string): Promise<void> {
	await requestApi(`/api/account/tokens/${encodeURIComponent(id)}`, RevokeApiTokenResponseSchema, {
		method: "DELETE",
	});
}

/** The account's webhook endpoints, newest first. */
export async function listWebhooks(): Promise<WebhookEndpoint[]> {
	return (await requestApi("/api/account/webhooks", WebhookEndpointListSchema)).items;
}

/** Adds an endpoint; the answer carries its signing secret, shown this once. */
export function addWebhook(request: CreateWebhookRequest) {
	return requestApi("/api/account/webhooks", CreatedWebhookSchema, {
		method: "POST",
		body: JSON.stringify(request),
	});
}

export async function deleteWebhook(id: string): Promise<void> {
	await fetchApiJson(`/api/account/webhooks/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Queues a `webhook.test` delivery to the endpoint. */
export function sendWebhookTestEvent(id: string): Promise<WebhookDelivery> {
	return requestApi(
		`/api/account/webhooks/${encodeURIComponent(id)}/test`,
		QueuedWebhookDeliverySchema,
		{ method: "POST" },
	);
}

/** The endpoint's latest deliveries, newest first. */
export async function listWebhookDeliveries(id: string): Promise<WebhookDelivery[]> {
	return (
		await requestApi(
			`/api/account/webhooks/${encodeURIComponent(id)}/deliveries`,
			WebhookDeliveryListSchema,
		)
	).items;
}
