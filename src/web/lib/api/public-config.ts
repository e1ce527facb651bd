// The server's public config, parsed in one place: from the boot state in the page, or from
// `GET /api/config` when the page carries none. Read by hand: the first page imports this file
// (see src/web/lib/api/read-json.ts).
import { useQuery } from "@tanstack/react-query";
import type { PublicConfig } from "../../../shared/account/session";
import { createUnexpectedAnswerError, fetchApiJson } from "./api-fetch";
import { isRecord, readString } from "./read-json";

export const PUBLIC_CONFIG_QUERY_KEY = ["config"] as const;

/** SHARING as the server says it; a server that says nothing has public links, the default. */
function readSharingMode(value: unknown): PublicConfig["sharing"] {
	return value === "off" || value === "signed-in" ? value : "public";
}

/** The public config in `body`, or undefined when it is not one. */
export function readPublicConfig(body: unknown): PublicConfig | undefined {
	if (!isRecord(body)) return undefined;
	const imageProvider = readString(body, "imageProvider");
	if (typeof body.googleEnabled !== "boolean" || imageProvider === undefined) return undefined;
	return {
		googleEnabled: body.googleEnabled,
		imageProvider,
		emailVerificationRequired: body.emailVerificationRequired === true,
		modelChoice: body.modelChoice === true,
		trash: body.trash === true,
		sharing: readSharingMode(body.sharing),
		shareMaxDays:
			typeof body.shareMaxDays === "number" && body.shareMaxDays > 0 ? body.shareMaxDays : null,
		enhance: body.enhance === true,
	};
}

/**
 * What the server tells every visitor about itself: whether Google sign-in is on, which image
 * provider it uses and whether generating waits for a verified address.
 */
async function fetchPublicConfig(): Promise<PublicConfig> {
	const { body, status } = await fetchApiJson("/api/config");
	const config = readPublicConfig(body);
	if (!config) throw createUnexpectedAnswerError(status);
	return config;
}

/** The public config, asked for once: it does not change while the server runs. */
export function usePublicConfig() {
	return useQuery({
		queryKey: PUBLIC_CONFIG_QUERY_KEY,
		queryFn: fetchPublicConfig,
		staleTime: Number.POSITIVE_INFINITY,
	});
}
