import { Images, Sparkles, Users } from "lucide-react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import type { Board } from "../../../shared/history/boards";
import {
	boardCardSummary,
	boardLoadFailed,
	boardLoadingBoards,
	boardNew,
	boardNoBoards,
	boardNotFound,
	boardNotFoundDescription,
	boardSeeYourBoards,
	boardShared,
	boardSharedBy,
	boardSharedWithYou,
	boardSmart,
	boardsTitle,
	boardYourBoards,
} from "../../../shared/i18n/messages";
import { Badge } from "../../components/basics/badge";
import { QueryStatus } from "../../components/basics/query-status";
import { useBoards } from "../../lib/collections/boards-requests";
import { formatDateTime } from "../../lib/ui/date-format";
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
							<Badge icon={<Sparkles aria-hidden="true" className="size-3.5" />}>
								{boardSmart()}
							</Badge>
						) : null}
						{board.visibility === "shared" ? (
							<Badge icon={<Users aria-hidden="true" className="size-3.5" />}>
								{boardShared()}
							</Badge>
						) : null}
					</h3>
					<p className="text-sm text-slate-600">
						{boardCardSummary({ count: board.count, date: formatDateTime(board.updatedAt) })}
					</p>
					{isOwn ? null : (
						<p className="text-sm text-slate-600">{boardSharedBy({ email: board.owner.email })}</p>
					)}
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
			<h1 className="text-3xl font-semibold tracking-tight text-slate-900">{boardsTitle()}</h1>
			<section
				aria-labelledby="new-board-heading"
				className="rounded-2xl bg-white/90 p-5 shadow-card ring-1 ring-slate-200/80 sm:p-6"
			>
				<h2 id="new-board-heading" className="mb-4 text-lg font-semibold text-slate-900">
					{boardNew()}
				</h2>
				<NewBoardForm />
			</section>
			{boards.data ? (
				<>
					<section aria-labelledby="own-boards-heading" className="space-y-4">
						<h2 id="own-boards-heading" className="text-lg font-semibold text-slate-900">
							{boardYourBoards()}
						</h2>
						{own.length === 0 ? (
							<p className="text-sm text-slate-600">{boardNoBoards()}</p>
						) : (
							<BoardGrid boards={own} label={boardYourBoards()} isOwn />
						)}
					</section>
					{shared.length > 0 ? (
						<section aria-labelledby="shared-boards-heading" className="space-y-4">
							<h2 id="shared-boards-heading" className="text-lg font-semibold text-slate-900">
								{boardSharedWithYou()}
							</h2>
							<BoardGrid boards={shared} label={boardSharedWithYou()} isOwn={false} />
						</section>
					) : null}
				</>
			) : (
				<QueryStatus
					query={boards}
					loadingLabel={boardLoadingBoards()}
					failureMessage={boardLoadFailed()}
				/>
			)}
		</div>
	);
}

/** A board's address that names no board the person may see: gone, private, or never made. */
export function BoardNotFound() {
	return (
		<div className="space-y-3">
			<h1 className="text-3xl font-semibold tracking-tight text-slate-900">{boardNotFound()}</h1>
			<p className="text-sm text-slate-600">{boardNotFoundDescription()}</p>
			<Link
				to={APP_PATHS.boards}
				className="inline-block text-sm font-semibold text-accent-700 hover:underline"
			>
				{boardSeeYourBoards()}
			</Link>
		</div>
	);
}
