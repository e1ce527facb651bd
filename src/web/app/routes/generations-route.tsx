// The history and the administrator's audit log load as one module: apart, the query code they
// share would be split into a chunk of its own that the first page then loads as well
// (docs/decisions/005-first-load-budget.md). The mask editor's route is here too, its screen a
// chunk of its own: one import() fewer on the first page.

import { lazy } from "react";
import { Navigate, useParams } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { boardLoading, boardLoadOneFailed } from "../../../shared/i18n/messages";
import { QueryStatus } from "../../components/basics/query-status";
import { AuditLogPage } from "../../features/admin/audit-log-page";
import { useAuth } from "../../features/auth/auth-context";
import { BoardHeader } from "../../features/boards/board-header";
import { BoardNotFound, BoardsPage } from "../../features/boards/boards-page";
import { HistoryPage } from "../../features/history/page/history-page";
import { TrashPage } from "../../features/history/page/trash-page";
import { useBoards } from "../../lib/collections/boards-requests";

/** The Trash (`/trash`), in the history's module: it shares its query code and thumbnails. */
export function TrashRoute() {
	return <TrashPage />;
}

/** Hands the server's admin flag to the history, which may not import the auth feature itself. */
export function GenerationsRoute() {
	const { isAdmin, user } = useAuth();
	return <HistoryPage isAdmin={isAdmin} viewerEmail={user?.email ?? null} />;
}

/**
 * The audit log, for the administrator only (the server answers anyone else 404); others go home.
 * Checked here rather than by a guard in the route table, which would load with the first page.
 */
export function AuditLogRoute() {
	const { isAdmin } = useAuth();
	return isAdmin ? <AuditLogPage /> : <Navigate to={APP_PATHS.generator} replace />;
}

/** `/boards`: the person's boards and those shared with them. */
export function BoardsRoute() {
	const { user } = useAuth();
	return <BoardsPage viewerEmail={user?.email ?? null} />;
}

/**
 * `/boards/:boardId`: the history of what is on the board, with the board's own header. A board
 * the person may not see is as one that does not exist.
 */
export function BoardRoute() {
	const { isAdmin, user } = useAuth();
	const { boardId = "" } = useParams();
	const boards = useBoards();
	if (!boards.data) {
		return (
			<QueryStatus
				query={boards}
				loadingLabel={boardLoading()}
				failureMessage={boardLoadOneFailed()}
			/>
		);
	}
	const board = boards.data?.find((entry) => entry.id === boardId.toLowerCase());
	if (!board) return <BoardNotFound />;
	return (
		<HistoryPage
			// Another board is another page: nothing of the last one's state carries over.
			key={board.id}
			isAdmin={isAdmin}
			viewerEmail={user?.email ?? null}
			board={{
				id: board.id,
				name: board.name,
				canChange: board.canChange,
				isSmart: board.kind === "smart",
				header: <BoardHeader board={board} isOwn={board.owner.email === user?.email} />,
			}}
		/>
	);
}

/** The mask editor (/edit), loaded only when opened. */
export const EditorRoute = lazy(async () => ({
	default: (await import("../../features/editor/page/editor-page")).EditorPage,
}));
