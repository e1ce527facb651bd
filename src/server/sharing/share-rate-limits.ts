import { createHash } from "node:crypto";
import { countInWindow } from "../db/rate-limit-windows";
import { AppError } from "../errors/app-error";
import type { ShareDeps } from "./create-share";
import type { WindowLimit } from "./share-settings";

function digest(text: string): string {
	return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

async function consume(deps: ShareDeps, key: string, limit: WindowLimit): Promise<void> {
	const { count, resetSeconds } = await countInWindow(deps.database.db, key, limit.windowSeconds);
	if (count > limit.max) {
		throw new AppError("RATE_LIMITED", undefined, { retryAfterSeconds: Math.max(1, resetSeconds) });
	}
}

/**
 * Counts one request of a shared page or image against the visitor's address and the link (both
 * kept hashed), across every server process; beyond either limit, 429 with Retry-After.
 */
export async function limitSharedRequest(
	deps: ShareDeps,
	address: string,
	token: string,
): Promise<void> {
	const { perAddress, perLink } = deps.settings.pageLimits;
	await consume(deps, `share-page-address:${digest(address)}`, perAddress);
	await consume(deps, `share-page-link:${digest(token)}`, perLink);
}

/** Counts one report against the visitor's address; beyond the limit, 429 with Retry-After. */
export async function limitReport(deps: ShareDeps, address: string): Promise<void> {
	await consume(deps, `share-report:${digest(address)}`, deps.settings.reportLimit);
}
