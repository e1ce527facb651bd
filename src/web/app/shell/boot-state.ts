import type { QueryClient } from "@tanstack/react-query";
import { BOOT_STATE_ELEMENT_ID, type BootState } from "../../../shared/account/boot-state";
import { SESSION_QUERY_KEY } from "../../features/auth/auth-session";
import { PUBLIC_CONFIG_QUERY_KEY, readPublicConfig } from "../../lib/api/public-config";
import { isRecord } from "../../lib/api/read-json";

/**
 * The boot state the server put in the page (src/shared/account/boot-state.ts), or undefined when there is
 * none (the Vite dev server) or it cannot be read: the app then asks the server for both.
 */
export function readBootState(document: Document): BootState | undefined {
	const text = document.getElementById(BOOT_STATE_ELEMENT_ID)?.textContent;
	if (!text) return undefined;
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (!isRecord(body)) return undefined;
	const session = body.session;
	const config = readPublicConfig(body.config);
	if (session !== "signed-out" && session !== "unknown") return undefined;
	return config && { session, config };
}

/**
 * Puts what the boot state already answers into the query cache, so the first render (the
 * prerender at build time, the hydration in the browser) shows it without a request: the public
 * config, and "nobody is signed in" when the request had no session cookie.
 */
export function seedQueryClient(queryClient: QueryClient, state: BootState | undefined): void {
	if (!state) return;
	queryClient.setQueryData(PUBLIC_CONFIG_QUERY_KEY, state.config);
	if (state.session === "signed-out") queryClient.setQueryData(SESSION_QUERY_KEY, null);
}
