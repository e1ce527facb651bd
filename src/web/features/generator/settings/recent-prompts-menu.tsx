// Recent: the person's last prompts (kept on the server), searched, one used in the prompt box,
// one or all removed. A disclosure beside "Load settings from image"; loaded with the settings.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { History, X } from "lucide-react";
import { useId, useRef, useState } from "react";
import {
	generatorActionFailed,
	generatorLoading,
	generatorNoRecent,
	generatorNoRecentMatch,
	generatorRecent,
	generatorRecentPrompts,
	generatorRemoveAll,
	generatorRemovePrompt,
	generatorSearchRecent,
} from "../../../../shared/i18n/messages";
import { ApiError } from "../../../lib/api/api-client";
import {
	fetchRecentPrompts,
	RECENT_PROMPTS_QUERY_KEY,
	removeRecentPrompts,
} from "../../../lib/generations/prompts-requests";
import { showToast } from "../../../lib/ui/toast";

type RecentPromptsMenuProps = {
	onUse: (prompt: string) => void;
};

export function RecentPromptsMenu({ onUse }: RecentPromptsMenuProps) {
	const panelId = useId();
	const searchId = useId();
	const queryClient = useQueryClient();
	const buttonRef = useRef<HTMLButtonElement>(null);
	const searchRef = useRef<HTMLInputElement>(null);
	const [isOpen, setIsOpen] = useState(false);
	const [search, setSearch] = useState("");
	const recent = useQuery({
		queryKey: [...RECENT_PROMPTS_QUERY_KEY, search.trim()],
		queryFn: ({ signal }) => fetchRecentPrompts(search, signal),
		enabled: isOpen,
		staleTime: 0,
	});
	const close = () => {
		setIsOpen(false);
		buttonRef.current?.focus();
	};
	const remove = async (prompt?: string) => {
		try {
			await removeRecentPrompts(prompt);
			await queryClient.invalidateQueries({ queryKey: RECENT_PROMPTS_QUERY_KEY });
			// The button pressed is gone with its prompt: focus stays in the panel.
			searchRef.current?.focus();
		} catch (error) {
			void showToast("error", error instanceof ApiError ? error.message : generatorActionFailed());
		}
	};
	const items = recent.data ?? [];
	return (
		<div className="relative">
			<button
				ref={buttonRef}
				type="button"
				aria-expanded={isOpen}
				aria-controls={panelId}
				onClick={() => setIsOpen((open) => !open)}
				className="inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-lg px-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50"
			>
				<History aria-hidden="true" className="size-4" />
				{generatorRecent()}
			</button>
			{isOpen ? (
				// biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the panel closes it.
				<div
					id={panelId}
					onKeyDown={(event) => {
						if (event.key === "Escape") {
							event.stopPropagation();
							close();
						}
					}}
					className="absolute left-2 z-menu mt-1 w-64 space-y-2 rounded-xl bg-white p-3 shadow-lg ring-1 ring-slate-200"
				>
					<label htmlFor={searchId} className="sr-only">
						{generatorSearchRecent()}
					</label>
					<input
						ref={searchRef}
						id={searchId}
						type="search"
						value={search}
						placeholder={generatorSearchRecent()}
						// biome-ignore lint/a11y/noAutofocus: the panel was just opened to search it.
						autoFocus
						onChange={(event) => setSearch(event.target.value)}
						onKeyDown={(event) => {
							// Enter searches as typed; it does not start a generation.
							if (event.key === "Enter") event.preventDefault();
						}}
						className="block h-9 w-full rounded-lg border-0 bg-white px-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-accent-600 focus:outline-none"
					/>
					{recent.isPending ? (
						<p className="text-sm text-slate-600">{generatorLoading()}</p>
					) : items.length === 0 ? (
						<p className="text-sm text-slate-600">
							{search.trim() ? generatorNoRecentMatch() : generatorNoRecent()}
						</p>
					) : (
						<ul
							aria-label={generatorRecentPrompts()}
							className="max-h-72 space-y-1 overflow-y-auto"
						>
							{items.map((prompt) => (
								<li key={prompt} className="flex items-start gap-1">
									<button
										type="button"
										onClick={() => {
											setIsOpen(false);
											onUse(prompt);
										}}
										className="min-w-0 flex-1 cursor-pointer truncate rounded-lg px-2 py-1 text-left text-sm text-slate-800 hover:bg-slate-100"
									>
										{prompt}
									</button>
									<button
										type="button"
										aria-label={generatorRemovePrompt({ prompt })}
										onClick={() => void remove(prompt)}
										className="inline-flex size-7 shrink-0 cursor-pointer items-center justify-center rounded-md text-slate-600 hover:bg-slate-100"
									>
										<X aria-hidden="true" className="size-3.5" />
									</button>
								</li>
							))}
						</ul>
					)}
					{items.length > 0 && !search.trim() ? (
						<button
							type="button"
							onClick={() => void remove()}
							className="inline-flex h-9 cursor-pointer items-center rounded-lg px-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
						>
							{generatorRemoveAll()}
						</button>
					) : null}
				</div>
			) : null}
		</div>
	);
}
