import { Check, ChevronDown } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import {
	ASPECT_RATIOS,
	type AspectRatio,
	type AspectRatioOption,
	toRatioParam,
} from "../../../../shared/generations/aspect-ratios";
import { describeAspectRatio } from "../../../lib/ui/aspect-ratio-label";
import { joinClassNames } from "../../../lib/ui/class-names";
import { AspectRatioGlyph } from "./aspect-ratio-glyph";

// Letters typed within this long of each other search together ("por" finds Portrait).
const TYPEAHEAD_RESET_MS = 500;
const PAGE_STEP = 10;

/**
 * The next option whose label starts with `search`, looking from after `fromIndex` and wrapping.
 * A repeated single letter ("lll") cycles through the options starting with that letter.
 */
function findTypeaheadMatch(
	options: readonly AspectRatioOption[],
	search: string,
	fromIndex: number,
): number | undefined {
	const isRepeat = search.length > 1 && [...search].every((letter) => letter === search[0]);
	const query = isRepeat ? search.slice(0, 1) : search;
	const start = isRepeat || query.length === 1 ? fromIndex + 1 : fromIndex;
	for (let offset = 0; offset < options.length; offset += 1) {
		const index = (start + offset) % options.length;
		const option = options[index];
		if (option && describeAspectRatio(option).toLowerCase().startsWith(query)) return index;
	}
	return undefined;
}

type AspectRatioSelectProps = {
	value: AspectRatio;
	onChange: (value: AspectRatio) => void;
	label: string;
	/** The ratios the chosen model offers; all six until the models are known. */
	ratios?: readonly AspectRatio[];
};

/**
 * The aspect-ratio dropdown: the WAI-ARIA select-only combobox pattern. Focus stays on the
 * combobox while `aria-activedescendant` walks the options, so arrows, Home/End, Page Up/Down,
 * Enter, Space, Escape, Tab and type-ahead all work as they do in a native select, and screen
 * readers announce each option. Written here rather than taken from Radix Select, whose 25 KB
 * would have to load with the first page.
 */
export function AspectRatioSelect({ value, onChange, label, ratios }: AspectRatioSelectProps) {
	const labelId = useId();
	const listboxId = useId();
	const optionIdPrefix = useId();
	const options = ratios
		? ASPECT_RATIOS.filter((option) => ratios.includes(option.value))
		: ASPECT_RATIOS;
	const lastIndex = options.length - 1;
	const clampIndex = (index: number) => Math.min(lastIndex, Math.max(0, index));
	const selectedIndex = Math.max(
		0,
		options.findIndex((option) => option.value === value),
	);
	const selected = options[selectedIndex] ?? ASPECT_RATIOS[0];
	const [isOpen, setIsOpen] = useState(false);
	const [activeIndex, setActiveIndex] = useState(selectedIndex);
	const listboxRef = useRef<HTMLDivElement>(null);
	const typeahead = useRef({ search: "", lastTypedAt: 0 });

	const optionId = (index: number) => `${optionIdPrefix}-option-${index}`;

	useEffect(() => {
		if (!isOpen) return;
		const option = listboxRef.current?.querySelector<HTMLElement>(`[data-index="${activeIndex}"]`);
		option?.scrollIntoView({ block: "nearest" });
	}, [isOpen, activeIndex]);

	function open(index: number) {
		setActiveIndex(clampIndex(index));
		setIsOpen(true);
	}

	function close() {
		setIsOpen(false);
		typeahead.current.search = "";
	}

	function choose(index: number) {
		const option = options[index];
		if (option && option.value !== value) onChange(option.value);
		close();
	}

	function typeAhead(letter: string) {
		const now = Date.now();
		const state = typeahead.current;
		state.search =
			now - state.lastTypedAt > TYPEAHEAD_RESET_MS ? letter : `${state.search}${letter}`;
		state.lastTypedAt = now;
		const match = findTypeaheadMatch(options, state.search, isOpen ? activeIndex : selectedIndex);
		if (match !== undefined) open(match);
		else if (!isOpen) open(selectedIndex);
	}

	function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
		// Leave shortcuts with modifiers (Ctrl+Enter, Ctrl+K) to the page.
		if (event.ctrlKey || event.metaKey) return;
		const { key, altKey } = event;
		const isTyping =
			Date.now() - typeahead.current.lastTypedAt <= TYPEAHEAD_RESET_MS &&
			typeahead.current.search !== "";

		if (!isOpen) {
			if (key === "ArrowDown" || key === "ArrowUp" || key === "Enter" || key === " ") {
				event.preventDefault();
				open(key === "ArrowUp" && !altKey ? 0 : selectedIndex);
			} else if (key === "Home") {
				event.preventDefault();
				open(0);
			} else if (key === "End") {
				event.preventDefault();
				open(lastIndex);
			} else if (key.length === 1 && key !== " " && !altKey) {
				event.preventDefault();
				typeAhead(key.toLowerCase());
			}
			return;
		}

		switch (key) {
			case "ArrowDown":
				event.preventDefault();
				setActiveIndex((index) => clampIndex(index + 1));
				return;
			case "ArrowUp":
				event.preventDefault();
				if (altKey) choose(activeIndex);
				else setActiveIndex((index) => clampIndex(index - 1));
				return;
			case "Home":
				event.preventDefault();
				setActiveIndex(0);
				return;
			case "End":
				event.preventDefault();
				setActiveIndex(lastIndex);
				return;
			case "PageDown":
				event.preventDefault();
				setActiveIndex((index) => clampIndex(index + PAGE_STEP));
				return;
			case "PageUp":
				event.preventDefault();
				setActiveIndex((index) => clampIndex(index - PAGE_STEP));
				return;
			case "Enter":
				event.preventDefault();
				choose(activeIndex);
				return;
			case "Escape":
				// Handled here: the page's Escape shortcut (clear everything) must not also fire.
				event.preventDefault();
				event.stopPropagation();
				close();
				return;
			case "Tab":
				// Tab keeps its usual job of moving on, taking the highlighted option along.
				choose(activeIndex);
				return;
			case " ":
				event.preventDefault();
				if (isTyping) typeAhead(" ");
				else choose(activeIndex);
				return;
			default:
				if (key.length === 1 && !altKey) {
					event.preventDefault();
					typeAhead(key.toLowerCase());
				}
		}
	}

	return (
		<div className="relative">
			<span id={labelId} className="mb-1.5 block text-sm font-medium text-slate-800">
				{label}
			</span>
			<div
				role="combobox"
				tabIndex={0}
				aria-labelledby={labelId}
				aria-controls={listboxId}
				aria-expanded={isOpen}
				aria-haspopup="listbox"
				aria-activedescendant={isOpen ? optionId(activeIndex) : undefined}
				onKeyDown={handleKeyDown}
				onClick={() => (isOpen ? close() : open(selectedIndex))}
				onBlur={close}
				className={joinClassNames(
					"flex h-11 w-full cursor-pointer items-center gap-2.5 rounded-lg bg-white px-3 text-left text-base text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset transition-shadow select-none sm:text-sm",
					"focus:ring-2 focus:ring-accent-600 focus:outline-none",
					isOpen && "ring-2 ring-accent-600",
				)}
			>
				<AspectRatioGlyph option={selected} className="text-accent-600" />
				<span className="min-w-0 flex-1 truncate">{describeAspectRatio(selected)}</span>
				<span aria-hidden="true" className="text-xs font-medium text-slate-500 tabular-nums">
					{toRatioParam(selected.value)}
				</span>
				<ChevronDown
					aria-hidden="true"
					className={joinClassNames(
						"size-4 shrink-0 text-slate-500 transition-transform",
						isOpen && "rotate-180",
					)}
				/>
			</div>
			<div
				ref={listboxRef}
				id={listboxId}
				role="listbox"
				aria-labelledby={labelId}
				tabIndex={-1}
				hidden={!isOpen}
				// Keep focus on the combobox, which owns the keyboard while the list is open.
				onMouseDown={(event) => event.preventDefault()}
				className="absolute inset-x-0 top-full z-menu mt-1.5 max-h-72 overflow-y-auto rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-200"
			>
				{options.map((option, index) => {
					const isSelected = option.value === value;
					const isActive = index === activeIndex;
					return (
						// biome-ignore lint/a11y/useFocusableInteractive: with aria-activedescendant the options are highlighted, never focused; the combobox keeps focus and handles their keys
						// biome-ignore lint/a11y/useKeyWithClickEvents: the combobox handles the keyboard for every option (see handleKeyDown)
						<div
							key={option.value}
							id={optionId(index)}
							role="option"
							aria-selected={isSelected}
							data-index={index}
							onMouseMove={() => setActiveIndex(index)}
							onClick={() => choose(index)}
							className={joinClassNames(
								"flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm text-slate-700",
								isActive && "bg-accent-50 text-accent-800",
								isSelected && "font-semibold",
							)}
						>
							<AspectRatioGlyph
								option={option}
								className={isActive || isSelected ? "text-accent-600" : "text-slate-400"}
							/>
							<span className="min-w-0 flex-1 truncate">{describeAspectRatio(option)}</span>
							<span aria-hidden="true" className="text-xs text-slate-500 tabular-nums">
								{toRatioParam(option.value)}
							</span>
							<Check
								aria-hidden="true"
								className={joinClassNames(
									"size-4 shrink-0 text-accent-600",
									!isSelected && "invisible",
								)}
							/>
						</div>
					);
				})}
			</div>
		</div>
	);
}
