import { Layers, ListChecks, Palette, Search, Star, UserRound, X } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { MAX_SEARCH_LENGTH } from "../../../../shared/core/constants";
import {
	ASPECT_RATIOS,
	type AspectRatio,
	readRatioParam,
	toRatioParam,
} from "../../../../shared/generations/aspect-ratios";
import type { GenerationModel } from "../../../../shared/generations/generation-responses";
import {
	historyAllModels,
	historyAllRatios,
	historyDetailAspectRatio,
	historyDetailModel,
	historyFavouritesOnly,
	historyOneBatch,
	historyPersonFilter,
	historySearchPrompts,
	historySelect,
	historyShowEveryGeneration,
	historyShowEveryStyle,
	historyStyleFilter,
	historyWholeEmail,
} from "../../../../shared/i18n/messages";
import { describeAspectRatio } from "../../../lib/ui/aspect-ratio-label";
import { joinClassNames } from "../../../lib/ui/class-names";
import type { HistoryFilters } from "./history-filters";

/** How long typing pauses before the search runs. */
const SEARCH_DEBOUNCE_MS = 300;

const FIELD_CLASS_NAME =
	"h-10 rounded-lg border-0 bg-white text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-accent-600 focus:outline-none";

const TOGGLE_CLASS_NAME =
	"inline-flex h-10 shrink-0 cursor-pointer items-center gap-1.5 rounded-lg bg-white px-3 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset transition-colors hover:bg-slate-50 aria-pressed:bg-accent-50 aria-pressed:text-accent-800 aria-pressed:ring-accent-300";

// A loose check: the server has the last word on whose e-mail it is.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export type FilterChange = {
	change: Partial<HistoryFilters>;
	/** Refining the search as it is typed replaces the address instead of adding a step to Back. */
	isRefinement?: boolean;
};

/**
 * The search box: what is typed runs as a search once typing pauses (or at once with Enter). It
 * shows what the address says when that changes by itself (Back, Forward, Clear search).
 */
function SearchField({
	value,
	onSearch,
}: {
	value: string;
	onSearch: (search: string, options: { isRefinement: boolean }) => void;
}) {
	const [text, setText] = useState(value);
	const searchedRef = useRef(value);
	const onSearchRef = useRef(onSearch);
	useEffect(() => {
		onSearchRef.current = onSearch;
	});

	useEffect(() => {
		if (value === searchedRef.current) return;
		searchedRef.current = value;
		setText(value);
	}, [value]);

	const search = (next: string) => {
		if (next === searchedRef.current) return;
		const isRefinement = searchedRef.current !== "" && next !== "";
		searchedRef.current = next;
		onSearchRef.current(next, { isRefinement });
	};

	// biome-ignore lint/correctness/useExhaustiveDependencies: `search` reads only refs.
	useEffect(() => {
		const next = text.trim();
		if (next === searchedRef.current) return;
		const timer = setTimeout(() => search(next), SEARCH_DEBOUNCE_MS);
		return () => clearTimeout(timer);
	}, [text]);

	return (
		<search className="relative min-w-0 flex-1 basis-64">
			<form
				onSubmit={(event: FormEvent) => {
					event.preventDefault();
					search(text.trim());
				}}
			>
				<Search
					aria-hidden="true"
					className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
				/>
				<input
					type="search"
					aria-label={historySearchPrompts()}
					placeholder={historySearchPrompts()}
					maxLength={MAX_SEARCH_LENGTH}
					value={text}
					onChange={(event) => setText(event.target.value)}
					className={joinClassNames(FIELD_CLASS_NAME, "w-full pr-3 pl-9")}
				/>
			</form>
		</search>
	);
}

/**
 * The administrator's filter by person: an e-mail, taken on Enter or when the field is left (a
 * half-typed address would only find nobody). Addresses seen on the cards are offered.
 */
function OwnerField({
	value,
	knownOwners,
	onChange,
}: {
	value: string;
	knownOwners: readonly string[];
	onChange: (ownerEmail: string) => void;
}) {
	const [text, setText] = useState(value);
	const [isInvalid, setIsInvalid] = useState(false);
	const listId = useId();
	const hintId = useId();
	useEffect(() => {
		setText(value);
		setIsInvalid(false);
	}, [value]);

	const apply = () => {
		const next = text.trim();
		if (next !== "" && !EMAIL_PATTERN.test(next)) {
			setIsInvalid(true);
			return;
		}
		setIsInvalid(false);
		if (next !== value) onChange(next);
	};

	return (
		<form
			className="relative min-w-0 flex-1 basis-56"
			onSubmit={(event) => {
				event.preventDefault();
				apply();
			}}
		>
			<UserRound
				aria-hidden="true"
				className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
			/>
			<input
				type="email"
				aria-label={historyPersonFilter()}
				placeholder={historyPersonFilter()}
				list={listId}
				value={text}
				onChange={(event) => {
					setText(event.target.value);
					setIsInvalid(false);
				}}
				onBlur={apply}
				aria-invalid={isInvalid || undefined}
				aria-describedby={isInvalid ? hintId : undefined}
				className={joinClassNames(
					FIELD_CLASS_NAME,
					"w-full pr-3 pl-9",
					isInvalid && "ring-red-500",
				)}
			/>
			<datalist id={listId}>
				{knownOwners.map((owner) => (
					<option key={owner} value={owner} />
				))}
			</datalist>
			{isInvalid ? (
				<p id={hintId} className="absolute top-full mt-1 text-xs font-medium text-red-700">
					{historyWholeEmail()}
				</p>
			) : null}
		</form>
	);
}

type HistoryToolbarProps = {
	filters: HistoryFilters;
	onChange: (change: FilterChange) => void;
	/** The administrator may filter by person. */
	isAdmin: boolean;
	knownOwners: readonly string[];
	/** The models to filter by ("All models" besides); none when there is no choice to make. */
	modelChoices: readonly GenerationModel[];
	/** Whether the model filter has its place, shown before the models arrive so nothing moves. */
	isModelFilterShown: boolean;
	isSelecting: boolean;
	onToggleSelecting: () => void;
	/** The name of the style filtered by, where a card shown has it. */
	styleName?: string | undefined;
};

/** Search, the filters (aspect ratio, model, favourites, and the administrator's person) and Select. */
export function HistoryToolbar({
	filters,
	onChange,
	isAdmin,
	knownOwners,
	modelChoices,
	isModelFilterShown,
	isSelecting,
	onToggleSelecting,
	styleName,
}: HistoryToolbarProps) {
	return (
		<div className="flex flex-wrap items-center gap-2">
			<SearchField
				value={filters.search}
				onSearch={(search, { isRefinement }) => onChange({ change: { search }, isRefinement })}
			/>
			{isAdmin ? (
				<OwnerField
					value={filters.ownerEmail}
					knownOwners={knownOwners}
					onChange={(ownerEmail) => onChange({ change: { ownerEmail } })}
				/>
			) : null}
			<select
				aria-label={historyDetailAspectRatio()}
				value={filters.aspectRatio ?? ""}
				onChange={(event) =>
					onChange({ change: { aspectRatio: readRatioParam(event.target.value) } })
				}
				className={joinClassNames(FIELD_CLASS_NAME, "cursor-pointer pr-8 pl-3")}
			>
				<option value="">{historyAllRatios()}</option>
				{ASPECT_RATIOS.map((option) => (
					<option key={option.value} value={option.value satisfies AspectRatio}>
						{toRatioParam(option.value)} · {describeAspectRatio(option)}
					</option>
				))}
			</select>
			{isModelFilterShown || modelChoices.length > 0 ? (
				<select
					aria-label={historyDetailModel()}
					value={filters.modelId}
					onChange={(event) => onChange({ change: { modelId: event.target.value } })}
					className={joinClassNames(FIELD_CLASS_NAME, "max-w-56 cursor-pointer truncate pr-8 pl-3")}
				>
					<option value="">{historyAllModels()}</option>
					{modelChoices.map((model) => (
						<option key={model.id} value={model.id}>
							{model.label}
						</option>
					))}
				</select>
			) : null}
			<button
				type="button"
				aria-pressed={filters.isFavoritesOnly}
				onClick={() => onChange({ change: { isFavoritesOnly: !filters.isFavoritesOnly } })}
				className={TOGGLE_CLASS_NAME}
			>
				<Star
					aria-hidden="true"
					className={joinClassNames(
						"size-4",
						filters.isFavoritesOnly ? "fill-amber-400 text-amber-600" : "text-slate-600",
					)}
				/>
				{historyFavouritesOnly()}
			</button>
			{filters.styleId ? (
				<button
					type="button"
					aria-pressed={true}
					onClick={() => onChange({ change: { styleId: "" } })}
					className={TOGGLE_CLASS_NAME}
				>
					<Palette aria-hidden="true" className="size-4" />
					{historyStyleFilter({ name: styleName ?? filters.styleId })}
					<X aria-hidden="true" className="size-3.5" />
					<span className="sr-only">{historyShowEveryStyle()}</span>
				</button>
			) : null}
			{filters.batchId ? (
				<button
					type="button"
					aria-pressed={true}
					onClick={() => onChange({ change: { batchId: "" } })}
					className={TOGGLE_CLASS_NAME}
				>
					<Layers aria-hidden="true" className="size-4" />
					{historyOneBatch()}
					<X aria-hidden="true" className="size-3.5" />
					<span className="sr-only">{historyShowEveryGeneration()}</span>
				</button>
			) : null}
			<button
				type="button"
				aria-pressed={isSelecting}
				onClick={onToggleSelecting}
				className={TOGGLE_CLASS_NAME}
			>
				<ListChecks aria-hidden="true" className="size-4" />
				{historySelect()}
			</button>
		</div>
	);
}
