// The administrator's calls to the API, each wrapped once. Loaded on demand, with the screens that
// use them (docs/decisions/005-first-load-budget.md).
import { type AuditLogPage, AuditLogPageSchema } from "../../shared/history-responses";
import { requestApi } from "./api-client";

/** One cursor page of the audit log, newest first. */
export function fetchAuditLogPage(options: {
	limit: number;
	cursor?: string | null;
	signal?: AbortSignal;
}): Promise<AuditLogPage> {
	const params = new URLSearchParams({ limit: String(options.limit) });
	if (options.cursor) params.set("cursor", options.cursor);
	return requestApi(`/api/admin/audit-log?${params}`, AuditLogPageSchema, {
		signal: options.signal,
	});
}
