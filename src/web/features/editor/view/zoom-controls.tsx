// Zoom out, the zoom level, zoom in and Fit, under the painting area of both tools.

import { Maximize, ZoomIn, ZoomOut } from "lucide-react";
import { EDITOR_TEXTS } from "../mask/editor-texts";
import { ToolButton } from "../mask/mask-toolbar";
import { MAX_ZOOM, MIN_ZOOM } from "./view-transform";

export function ZoomControls({
	scale,
	onZoom,
	onFit,
}: {
	scale: number;
	/** Zooms by `factor` around the area's centre. */
	onZoom: (factor: number) => void;
	onFit: () => void;
}) {
	return (
		<div className="flex items-center gap-1">
			<ToolButton
				label={EDITOR_TEXTS.zoomOut}
				shortcut="-"
				isDisabled={scale <= MIN_ZOOM}
				onClick={() => onZoom(1 / 1.25)}
				icon={ZoomOut}
			/>
			<output
				aria-label={EDITOR_TEXTS.zoom}
				className="text-center text-xs text-slate-600 tabular-nums"
				style={{ width: "3rem" }}
			>
				{Math.round(scale * 100)} %
			</output>
			<ToolButton
				label={EDITOR_TEXTS.zoomIn}
				shortcut="+"
				isDisabled={scale >= MAX_ZOOM}
				onClick={() => onZoom(1.25)}
				icon={ZoomIn}
			/>
			<ToolButton label={EDITOR_TEXTS.fit} icon={Maximize} shortcut="0" onClick={onFit}>
				<span>{EDITOR_TEXTS.fit}</span>
			</ToolButton>
		</div>
	);
}
