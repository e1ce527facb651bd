// The mask tools: Brush and Eraser, the brush's size and hardness, Invert, Clear, Undo, Redo and
// the mask's visibility, each a named button or slider with its shortcut, reachable by Tab.

import {
	Brush,
	Eraser,
	Eye,
	EyeOff,
	FlipHorizontal2,
	type LucideIcon,
	Redo2,
	Trash2,
	Undo2,
} from "lucide-react";
import type { ReactNode } from "react";
import { keyControl } from "../../../../shared/i18n/messages";
import { EDITOR_TEXTS } from "./editor-texts";
import type { MaskEditor } from "./use-mask-editor";

export const TOOL_BUTTON_CLASS_NAME =
	"inline-flex h-10 cursor-pointer items-center justify-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-accent-600 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60 aria-pressed:bg-accent-50 aria-pressed:text-accent-800 aria-pressed:ring-2 aria-pressed:ring-accent-300";

type ToolButtonProps = {
	label: string;
	/** Its picture, drawn 16 px and hidden from screen readers (the label names the button). */
	icon: LucideIcon;
	/** The keys, as aria-keyshortcuts writes them ("B", "Control+Z"), and shown in the title. */
	shortcut?: string;
	isPressed?: boolean;
	isDisabled?: boolean;
	onClick: () => void;
	/** Text shown beside the icon, where the label should be seen too. */
	children?: ReactNode;
};

export function ToolButton({
	label,
	icon: Icon,
	shortcut,
	isPressed,
	isDisabled = false,
	onClick,
	children,
}: ToolButtonProps) {
	return (
		<button
			type="button"
			aria-label={label}
			title={shortcut ? `${label} (${shortcut.replace("Control", keyControl())})` : label}
			aria-keyshortcuts={shortcut}
			aria-pressed={isPressed}
			disabled={isDisabled}
			onClick={onClick}
			className={TOOL_BUTTON_CLASS_NAME}
		>
			<Icon aria-hidden="true" className="size-4" />
			{children}
		</button>
	);
}

function Slider({
	label,
	value,
	min,
	max,
	shown,
	onChange,
	shortcut,
}: {
	label: string;
	value: number;
	min: number;
	max: number;
	shown: string;
	onChange: (value: number) => void;
	shortcut?: string;
}) {
	return (
		<label className="flex items-center gap-2 text-sm text-slate-700">
			<span className="shrink-0">{label}</span>
			<input
				type="range"
				min={min}
				max={max}
				value={value}
				aria-valuetext={shown}
				aria-keyshortcuts={shortcut}
				onChange={(event) => onChange(Number(event.target.value))}
				className="cursor-pointer accent-accent-600"
				style={{ width: "6rem" }}
			/>
			<span className="shrink-0 text-xs text-slate-500 tabular-nums" style={{ width: "3.5rem" }}>
				{shown}
			</span>
		</label>
	);
}

export function MaskToolbar({ editor }: { editor: MaskEditor }) {
	const { brush } = editor;
	const modes: readonly ToolButtonProps[] = [
		{
			label: EDITOR_TEXTS.brush,
			icon: Brush,
			shortcut: "B",
			isPressed: brush.mode === "paint",
			onClick: () => editor.setMode("paint"),
		},
		{
			label: EDITOR_TEXTS.eraser,
			icon: Eraser,
			shortcut: "E",
			isPressed: brush.mode === "erase",
			onClick: () => editor.setMode("erase"),
		},
	];
	const actions: readonly ToolButtonProps[] = [
		{
			label: EDITOR_TEXTS.invertMask,
			icon: FlipHorizontal2,
			shortcut: "I",
			onClick: editor.invertMask,
		},
		{ label: EDITOR_TEXTS.clear, icon: Trash2, onClick: editor.clear },
		{
			label: EDITOR_TEXTS.undo,
			icon: Undo2,
			shortcut: "Control+Z",
			isDisabled: !editor.canUndo,
			onClick: editor.undo,
		},
		{
			label: EDITOR_TEXTS.redo,
			icon: Redo2,
			shortcut: "Control+Shift+Z",
			isDisabled: !editor.canRedo,
			onClick: editor.redo,
		},
		{
			label: EDITOR_TEXTS.showMask,
			icon: editor.isMaskShown ? Eye : EyeOff,
			shortcut: "H",
			isPressed: editor.isMaskShown,
			onClick: () => editor.setIsMaskShown(!editor.isMaskShown),
		},
	];
	return (
		<div
			role="toolbar"
			aria-label={EDITOR_TEXTS.tools}
			className="flex flex-wrap items-center gap-1 border-b border-slate-200 bg-white px-2 py-1"
		>
			{modes.map((mode) => (
				<ToolButton key={mode.label} {...mode} />
			))}
			<Slider
				label={EDITOR_TEXTS.size}
				value={brush.size}
				min={editor.sizeRange.min}
				max={editor.sizeRange.max}
				shown={`${brush.size} px`}
				shortcut="[ ]"
				onChange={editor.setBrushSize}
			/>
			<Slider
				label={EDITOR_TEXTS.hardness}
				value={Math.round(brush.hardness * 100)}
				min={0}
				max={100}
				shown={`${Math.round(brush.hardness * 100)} %`}
				onChange={(value) => editor.setHardness(value / 100)}
			/>
			{actions.map((action) => (
				<ToolButton key={action.label} {...action} />
			))}
		</div>
	);
}
