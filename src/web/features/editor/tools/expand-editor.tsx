// Expand's frame and placement: a target ratio among Atelier's, or a percentage per side; the
// image dragged (or moved with the arrow keys) inside the new frame, the new area shown in the
// mask's colour, as it is what will be painted.

import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import {
	ASPECT_RATIOS,
	type AspectRatio,
	findAspectRatio,
	toRatioParam,
} from "../../../../shared/generations/aspect-ratios";
import { editorFrameSize } from "../../../../shared/i18n/messages";
import { LABEL_CLASS_NAME } from "../../../components/forms/field-classes";
import { Segments } from "../../../components/forms/segments";
import { describeAspectRatio } from "../../../lib/ui/aspect-ratio-label";
import { EDITOR_TEXTS } from "../mask/editor-texts";
import type { Point } from "../mask/mask-brush";
import { NEW_AREA_FILL } from "../mask/mask-overlay";
import { EditorCanvas } from "../view/editor-canvas";
import { useEditorView } from "../view/use-editor-view";
import { ZoomControls } from "../view/zoom-controls";
import {
	addsPixels,
	centreInFrame,
	type ExpandPlacement,
	frameForRatio,
	frameOf,
	movePlacement,
	placementFromPercentages,
	type Size,
} from "./expand-geometry";

const SIDES = ["left", "right", "top", "bottom"] as const;

/** The frame chosen: one of Atelier's ratios, or room per side. */
export type ExpandChoice = { ratio: AspectRatio | null; placement: ExpandPlacement };

/**
 * Where Expand starts: widescreen for a square or landscape image (ultrawide where it is wider
 * already), square for a portrait one; the source centred.
 */
export function initialExpandChoice(source: Size): ExpandChoice {
	const candidates: AspectRatio[] =
		source.width >= source.height ? ["--ar 16:9", "--ar 21:9"] : ["--ar 1:1", "--ar 16:9"];
	const ratio =
		candidates.find((candidate) => addsPixels(source, centreIn(source, candidate))) ?? "--ar 16:9";
	return { ratio, placement: centreIn(source, ratio) };
}

function centreIn(source: Size, ratio: AspectRatio): ExpandPlacement {
	return centreInFrame(source, frameForRatio(source, ratio));
}

export function ExpandEditor({
	image,
	size,
	choice,
	onChange,
}: {
	image: HTMLImageElement | null;
	size: Size;
	choice: ExpandChoice;
	onChange: (choice: ExpandChoice) => void;
}) {
	const frame = frameOf(size, choice.placement);
	const frameWidth = Math.round(frame.width);
	const frameHeight = Math.round(frame.height);
	const picture = useMemo(
		() => ({ width: frameWidth, height: frameHeight }),
		[frameWidth, frameHeight],
	);
	const { view, setView, fitToView, zoomBy, onResize, isPanKeyHeld } = useEditorView(picture);
	const dragRef = useRef<Point | null>(null);
	const [percentages, setPercentages] = useState<ExpandPlacement | null>(null);

	const move = (delta: Point) =>
		onChange({ ...choice, placement: movePlacement(size, choice.placement, delta) });

	const draw = (context: CanvasRenderingContext2D) => {
		context.fillStyle = NEW_AREA_FILL;
		context.fillRect(0, 0, frame.width, frame.height);
		const left = choice.placement.left * size.width;
		const top = choice.placement.top * size.height;
		if (image) context.drawImage(image, left, top, size.width, size.height);
		context.strokeStyle = "white";
		context.lineWidth = 2 / view.scale;
		context.strokeRect(left, top, size.width, size.height);
	};

	const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
		const step = { x: size.width / 50, y: size.height / 50 };
		const deltas: Record<string, Point> = {
			ArrowLeft: { x: -step.x, y: 0 },
			ArrowRight: { x: step.x, y: 0 },
			ArrowUp: { x: 0, y: -step.y },
			ArrowDown: { x: 0, y: step.y },
		};
		const delta = deltas[event.key];
		if (!delta) return;
		event.preventDefault();
		move(delta);
	};

	const chooseRatio = (ratio: AspectRatio) => {
		setPercentages(null);
		onChange({ ratio, placement: centreIn(size, ratio) });
	};

	const shownPercentages = percentages ?? {
		left: Math.round(choice.placement.left * 100),
		right: Math.round(choice.placement.right * 100),
		top: Math.round(choice.placement.top * 100),
		bottom: Math.round(choice.placement.bottom * 100),
	};

	const setSide = (side: (typeof SIDES)[number], value: number) => {
		const next = { ...shownPercentages, [side]: value };
		setPercentages(next);
		onChange({ ratio: null, placement: placementFromPercentages(next) });
	};

	return (
		<div className="flex min-h-0 flex-1 flex-col">
			<div className="flex flex-wrap items-end gap-3 border-b border-slate-200 bg-white px-3 py-2">
				<Segments
					label={EDITOR_TEXTS.targetRatio}
					name="expand-ratio"
					options={ASPECT_RATIOS.map((option) => option.value)}
					value={choice.ratio}
					onChange={chooseRatio}
					describe={(value) => ({
						shown: toRatioParam(value),
						spoken: `${toRatioParam(value)} ${describeAspectRatio(findAspectRatio(value))}`,
					})}
					message={null}
				/>
				<fieldset className="m-0 min-w-0 border-0 p-0">
					<legend className={LABEL_CLASS_NAME}>{EDITOR_TEXTS.perSide}</legend>
					<div className="flex flex-wrap gap-2">
						{SIDES.map((side) => (
							<label key={side} className="flex items-center gap-1 text-sm text-slate-700">
								{EDITOR_TEXTS.sides[side]}
								<input
									type="number"
									min={0}
									max={100}
									step={1}
									value={shownPercentages[side]}
									onChange={(event) => setSide(side, Number(event.target.value))}
									aria-describedby="expand-per-side-help"
									className="h-9 rounded-md px-2 text-sm ring-1 ring-slate-300 focus:ring-2 focus:ring-accent-600 focus:outline-none"
									style={{ width: "4rem" }}
								/>
								%
							</label>
						))}
					</div>
					<p id="expand-per-side-help" className="sr-only">
						{EDITOR_TEXTS.perSideHelp}
					</p>
				</fieldset>
			</div>
			<EditorCanvas
				label={EDITOR_TEXTS.expandCanvas}
				description={`${EDITOR_TEXTS.expandCanvasHelp} ${editorFrameSize({ width: String(frameWidth), height: String(frameHeight) })}.`}
				view={view}
				onViewChange={setView}
				onResize={onResize}
				draw={draw}
				drawKey={`${frameWidth} ${frameHeight} ${choice.placement.left} ${choice.placement.top} ${image ? 1 : 0}`}
				primary={{
					start: (at) => {
						dragRef.current = at;
					},
					move: (to) => {
						const from = dragRef.current;
						if (!from) return;
						// The frame stays put on the screen: the image moves by the pointer's travel.
						move({ x: to.x - from.x, y: to.y - from.y });
						dragRef.current = to;
					},
					end: () => {
						dragRef.current = null;
						setPercentages(null);
					},
					cancel: () => {
						dragRef.current = null;
					},
				}}
				isPanKeyHeld={isPanKeyHeld}
				onKeyDown={onKeyDown}
			/>
			<div className="flex items-center justify-between gap-2 border-t border-slate-200 bg-white px-3 py-1">
				<span className="text-xs text-slate-600 tabular-nums">
					{editorFrameSize({ width: String(frameWidth), height: String(frameHeight) })}
				</span>
				<ZoomControls scale={view.scale} onZoom={zoomBy} onFit={fitToView} />
			</div>
		</div>
	);
}
