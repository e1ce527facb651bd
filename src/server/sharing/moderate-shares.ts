import type { AdminShare, ShareReport } from "../../shared/history/sharing";
import { insertShareEntry, type ShareAction } from "../audit/audit-log-repository";
import { AppError } from "../errors/app-error";
import type { Viewer } from "../person/viewer";
import { presentShare, type ShareDeps } from "./create-share";
import { findLiveShareTarget } from "./find-live-share-target";
import {
	findOwnerEmail,
	findShareById,
	insertShareReport,
	markShareHidden,
	markShareRevoked,
	type ShareWithPrompt,
	selectAdminShares,
	selectShareReports,
} from "./share-repository";

/** The most links and reports the administrator's lists show, newest first. */
export const ADMIN_LIST_LIMIT = 200;

function presentAdminShare(
	row: ShareWithPrompt & { owner_email: string; reports: string | number | null },
): AdminShare {
	return { ...presentShare(row), ownerEmail: row.owner_email, reports: Number(row.reports ?? 0) };
}

/**
 * `POST /api/s/<token>/report`: a visitor's reason, stored for the administrator's queue. Only a
 * live link can be reported (an ended or hidden one shows nothing left to report).
 */
export async function reportShare(
	deps: ShareDeps,
	token: string,
	viewer: Viewer | undefined,
	reason: string,
): Promise<void> {
	const { share } = await findLiveShareTarget(deps, token, viewer);
	await insertShareReport(deps.database.db, share.id, reason);
	deps.logger.info("A shared link was reported", { shareId: share.id });
}

/** `GET /api/admin/shares`: everyone's links, newest first. */
export async function listAllShares(deps: ShareDeps): Promise<AdminShare[]> {
	const rows = await selectAdminShares(deps.database.db, { limit: ADMIN_LIST_LIMIT });
	return rows.map(presentAdminShare);
}

/** `GET /api/admin/reports`: the reports, newest first, each with its link. */
export async function listShareReports(deps: ShareDeps): Promise<ShareReport[]> {
	const rows = await selectShareReports(deps.database.db, ADMIN_LIST_LIMIT);
	return rows.map((row) => ({
		id: row.report_id,
		reason: row.reason,
		createdAt: row.reported_at.toISOString(),
		share: presentAdminShare(row),
	}));
}

/**
 * The administrator's Hide (the link then answers 451, a page saying it was taken down) or
 * Revoke (410), each written to the audit log in the same transaction. Doing it again changes
 * nothing and writes nothing.
 */
export async function moderateShare(
	deps: ShareDeps,
	administrator: Viewer,
	id: string,
	action: ShareAction,
): Promise<AdminShare> {
	await deps.database.db.transaction().execute(async (transaction) => {
		const row = await findShareById(transaction, id);
		if (!row) throw new AppError("NOT_FOUND");
		const isChanged =
			action === "hide-share"
				? await markShareHidden(transaction, id)
				: await markShareRevoked(transaction, id);
		if (!isChanged) return;
		await insertShareEntry(
			transaction,
			{ id: administrator.id, email: administrator.email },
			{
				action,
				shareId: id,
				ownerId: row.user_id,
				ownerEmail: (await findOwnerEmail(transaction, row.user_id)) ?? "",
				generationId: row.generation_id,
				prompt: row.prompt,
			},
		);
	});
	const [changed] = await selectAdminShares(deps.database.db, { limit: 1, id });
	if (!changed) throw new AppError("NOT_FOUND");
	return presentAdminShare(changed);
}
