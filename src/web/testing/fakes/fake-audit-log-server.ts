import { HttpResponse, http } from "msw";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/core/errors";
import type { AuditLogEntry, AuditLogPage } from "../../../shared/history/history-responses";
import { mswServer } from "../msw-server";
import { createTestGenerationId } from "./test-generations";

let nextEntryNumber = 1;

/** A deletion in the audit log, made just now; pass only what the test is about. */
export function createTestAuditEntry(overrides: Partial<AuditLogEntry> = {}): AuditLogEntry {
	const number = nextEntryNumber++;
	return {
		id: `audit-${number}`,
		action: "delete",
		actor_email: "admin@example.com",
		owner_email: "alice@example.com",
		generation_id: createTestGenerationId(),
		prompt: `A deleted lighthouse, number ${number}`,
		details: null,
		created_at: new Date().toISOString(),
		...overrides,
	};
}

/**
 * Answers `GET /api/admin/audit-log` the way the server answers the administrator: cursor pages,
 * newest first. `failure` makes it answer with that error instead.
 */
export function startFakeAuditLogServer(
	options: { entries?: AuditLogEntry[]; failure?: ErrorCode } = {},
) {
	const state = {
		entries: [...(options.entries ?? [])].sort((left, right) =>
			right.created_at.localeCompare(left.created_at),
		),
		failure: options.failure,
		requests: [] as URLSearchParams[],
	};
	mswServer.use(
		http.get("*/api/admin/audit-log", ({ request }) => {
			const search = new URL(request.url).searchParams;
			state.requests.push(search);
			if (state.failure) {
				return HttpResponse.json(
					{ success: false, error: errorBody(state.failure) },
					{ status: ERRORS[state.failure].status },
				);
			}
			const limit = Number(search.get("limit") ?? 50);
			const start = Number(search.get("cursor")?.replace("after-", "") ?? 0);
			const items = state.entries.slice(start, start + limit);
			const end = start + items.length;
			const page: AuditLogPage = {
				items,
				nextCursor: end < state.entries.length ? `after-${end}` : null,
			};
			return HttpResponse.json(page);
		}),
	);
	return {
		readRequests: () => state.requests,
		setFailure: (code: ErrorCode | undefined) => {
			state.failure = code;
		},
	};
}
