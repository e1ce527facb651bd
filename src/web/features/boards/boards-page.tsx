import { Images, Sparkles, Users } from "lucide-react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/app-routes";
import type { Board } from "../../../shared/boards";
import { Badge } from "../../components/badge";
import { QueryStatus } from "../../components/query-status";
import { useBoards } from "../../lib/boards-requests";
import { formatDateTime } from "../../lib/date-format";
import { formatCount } from "../../lib/number-format";
import { NewBoardForm } from "./new-board-form";

/** A board's address: its page, shareable inside this server. */
export function boardPath(id: string): string {
	return APP_PATHS.board.replace(":boardId", encodeURIComponent(id));
}

function BoardCard({ board, isOwn }: { board: Board; isOwn: boolean }) {
	return (
		<li className="overflow-hidden rounded-2xl bg-white/90 shadow-card ring-1 ring-slate-200/80">
			<Link to={boardPath(board.id)} className="block focus:outline-none focus-visible:ring-2">
				<div className="flex aspect-[4/3] items-center justify-center bg-slate-100">
					{board.coverUrl ? (
						<img src={board.coverUrl} alt="" className="size-full object-cover" loading="lazy" />
					) : (
						<Images aria-hidden="true" className="size-10 text-slate-400" />
					)}
				</div>
				<div className="space-y-1 p-4">
					<h3 className="flex items-center gap-2 font-semibold text-slate-900">
						{board.name}
						{board.kind === "smart" ? (
							<Badge icon={<Sparkles aria-hidden="true" className="size-3.5" />}>Smart</Badge>
						) : null}
						{board.visibility === "shared" ? (
							<Badge icon={<Users aria-hidden="true" className="size-3.5" />}>Shared</Badge>
						) : null}
					</h3>
					<p className="text-sm text-slate-600">
						{board.count === 1 ? "1 generation" : `${formatCount(board.count)} generations`} ·
						changed {formatDateTime(board.updatedAt)}
					</p>
					{isOwn ? null : <p className="text-sm text-slate-600">Shared by {board.owner.email}</p>}
				</div>
			</Link>
		</li>
	);
}

function BoardGrid({
	boards,
	label,
	isOwn,
}: {
	boards: readonly Board[];
	label: string;
	isOwn: boolean;
}) {
	return (
		<ul aria-label={label} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
			{boards.map((board) => (
				<BoardCard key={board.id} board={board} isOwn={isOwn} />
			))}
		</ul>
	);
}

/** `/boards`: the person's boards and those others share, each with its cover, count and last change. */
export function BoardsPage({ viewerEmail }: { viewerEmail: string | null }) {
	const boards = useBoards();
	const own = boards.data?.filter((board) => board.owner.email === viewerEmail) ?? [];
	const shared = boards.data?.filter((board) => board.owner.email !== viewerEmail) ?? [];
	return (
		<div className="space-y-8">
			<h1 className="text-3xl font-semibold tracking-tight text-slate-900">Boards</h1>
			<section
				aria-labelledby="new-board-heading"
				className="rounded-2xl bg-white/90 p-5 shadow-card ring-1 ring-slate-200/80 sm:p-6"
			>
				<h2 id="new-board-heading" className="mb-4 text-lg font-semibold text-slate-900">
					New board
				</h2>
				<NewBoardForm />
			</section>
			{boards.data ? (
				<>
					<section aria-labelledby="own-boards-heading" className="space-y-4">
						<h2 id="own-boards-heading" className="text-lg font-semibold text-slate-900">
							Your boards
						</h2>
						{own.length === 0 ? (
							<p className="text-sm text-slate-600">No boards yet.</p>
						) : (
							<BoardGrid boards={own} label="Your boards" isOwn />
						)}
					</section>
					{shared.length > 0 ? (
						<section aria-labelledby="shared-boards-heading" className="space-y-4">
							<h2 id="shared-boards-heading" className="text-lg font-semibold text-slate-900">
								Shared with you
							</h2>
							<BoardGrid boards={shared} label="Shared with you" isOwn={false} />
						</section>
					) : null}
				</>
			) : (
				<QueryStatus
					query={boards}
					loadingLabel="Loading boards"
					failureMessage="Failed to load boards. Please try again."
				/>
			)}
		</div>
	);
}

/** A board's address that names no board the person may see: gone, private, or never made. */
export function BoardNotFound() {
	return (
		<div className="space-y-3">
			<h1 className="text-3xl font-semibold tracking-tight text-slate-900">Board not found</h1>
			<p className="text-sm text-slate-600">
				This board does not exist, or its owner does not share it with you.
			</p>
			<Link
				to={APP_PATHS.boards}
				className="inline-block text-sm font-semibold text-accent-700 hover:underline"
			>
				See your boards
			</Link>
		</div>
	);
}
