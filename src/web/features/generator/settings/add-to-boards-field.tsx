import { Link } from "react-router";
import { APP_PATHS } from "../../../../shared/core/app-routes";
import {
	generatorAddToBoards,
	generatorLoadingBoards,
	generatorMakeBoard,
	generatorNoBoards,
} from "../../../../shared/i18n/messages";
import { listFillableBoards, useBoards } from "../../../lib/collections/boards-requests";

/**
 * Add new results to…: none, one or more of the person's boards (not smart ones), which each new
 * generation is put on as it starts (decision 032).
 */
export function AddToBoardsField({
	boardIds,
	onChange,
}: {
	boardIds: readonly string[];
	onChange: (ids: readonly string[]) => void;
}) {
	const boards = useBoards();
	const fillable = listFillableBoards(boards.data);
	const toggle = (id: string, isChecked: boolean) =>
		onChange(isChecked ? [...boardIds, id] : boardIds.filter((entry) => entry !== id));
	return (
		<fieldset>
			<legend className="mb-1.5 text-sm font-medium text-slate-800">
				{generatorAddToBoards()}
			</legend>
			{boards.isPending ? (
				<p className="text-sm text-slate-600">{generatorLoadingBoards()}</p>
			) : fillable.length === 0 ? (
				<p className="text-sm text-slate-600">
					{generatorNoBoards()}{" "}
					<Link to={APP_PATHS.boards} className="font-semibold text-accent-700 hover:underline">
						{generatorMakeBoard()}
					</Link>
				</p>
			) : (
				<div className="flex flex-wrap gap-x-5 gap-y-2">
					{fillable.map((board) => (
						<label key={board.id} className="flex items-center gap-2 text-sm text-slate-800">
							<input
								type="checkbox"
								className="size-4 accent-accent-600"
								checked={boardIds.includes(board.id)}
								onChange={(event) => toggle(board.id, event.target.checked)}
							/>
							{board.name}
						</label>
					))}
				</div>
			)}
		</fieldset>
	);
}
