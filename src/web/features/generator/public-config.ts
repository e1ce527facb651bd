import type { PublicConfig } from "../../../shared/session";
import { createUnexpectedAnswerError, fetchApiJson } from "../../lib/api-fetch";
import { isRecord, readString } from "../../lib/read-json";

export const PUBLIC_CONFIG_QUERY_KEY = ["config"] as const;

/**
 * What the server tells every visitor about itself: whether Google sign-in is on, which image
 * provider it uses and whether generating waits for a verified address. Read by hand: it is on the first page (see src/web/lib/read-json.ts).
 */
export async function fetchPublicConfig(): Promise<PublicConfig> {
	const { body, status } = await fetchApiJson("/api/config");
	const imageProvider = isRecord(body) ? readString(body, "imageProvider") : undefined;
	if (!isRecord(body) || typeof body.googleEnabled !== "boolean" || imageProvider === undefined) {
		throw createUnexpectedAnswerError(status);
	}
	return {
		googleEnabled: body.googleEnabled,
		imageProvider,
		emailVerificationRequired: body.emailVerificationRequired === true,
	};
}
