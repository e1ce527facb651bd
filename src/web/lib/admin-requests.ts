// The administrator's calls to the API, each wrapped once. Loaded on demand, with the screens that
// use them (docs/decisions/005-first-load-budget.md).
import { type AuditLogPage, AuditLogPageSchema } from "../../shared/history-responses";
import { type UsageReport, UsageReportSchema } from "../../shared/usage-responses";
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

/** The usage report of the last thirty days, its days counted in `timeZone`. */
export function fetchUsageReport(options: {
	timeZone: string;
	signal?: AbortSignal;
}): Promise<UsageReport> {
	const params = new URLSearchParams({ timeZone: options.timeZone });
	return requestApi(`/api/admin/usage?${params}`, UsageReportSchema, { signal: options.signal });
}
