// Shared links' calls to the API, each wrapped once. Loaded on demand, with the share dialog, the
// account page's Shared links and the administrator's screens (docs/decisions/005-first-load-budget.md).
import {
	type AdminShare,
	AdminShareListSchema,
	AdminShareSchema,
	type CreatedShare,
	CreatedShareSchema,
	type CreateShareRequest,
	type Share,
	ShareListSchema,
	type ShareReport,
	ShareReportListSchema,
	ShareSchema,
} from "../../../shared/history/sharing";
import { requestApi } from "../api/api-client";

function sharePath(id: string): string {
	return `/api/shares/${encodeURIComponent(id)}`;
}

function adminSharePath(id: string): string {
	return `/api/admin/shares/${encodeURIComponent(id)}`;
}

/** Makes a link; its address is in this answer only. */
export function createShare(request: CreateShareRequest): Promise<CreatedShare> {
	return requestApi("/api/shares", CreatedShareSchema, {
		method: "POST",
		body: JSON.stringify(request),
	});
}

/** The person's links, newest first. */
export async function listShares(signal?: AbortSignal): Promise<Share[]> {
	return (await requestApi("/api/shares", ShareListSchema, { signal })).items;
}

/** Ends a link at once. */
export function revokeShare(id: string): Promise<Share> {
	return requestApi(sharePath(id), ShareSchema, { method: "DELETE" });
}

/** A new address for a link; the old one ends. */
export function rotateShare(id: string): Promise<CreatedShare> {
	return requestApi(`${sharePath(id)}/rotate`, CreatedShareSchema, { method: "POST" });
}

/** Everyone's links, for the administrator. */
export async function listAllShares(signal?: AbortSignal): Promise<AdminShare[]> {
	return (await requestApi("/api/admin/shares", AdminShareListSchema, { signal })).items;
}

/** The reports queue, for the administrator. */
export async function listShareReports(signal?: AbortSignal): Promise<ShareReport[]> {
	return (await requestApi("/api/admin/reports", ShareReportListSchema, { signal })).items;
}

/** The administrator's takedown: the page says so (451). */
export function hideShare(id: string): Promise<AdminShare> {
	return requestApi(`${adminSharePath(id)}/hide`, AdminShareSchema, { method: "POST" });
}

/** The administrator's revoke (410). */
export function revokeAnyShare(id: string): Promise<AdminShare> {
	return requestApi(adminSharePath(id), AdminShareSchema, { method: "DELETE" });
}
