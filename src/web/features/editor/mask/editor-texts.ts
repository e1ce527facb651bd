// The mask editor's words: its tools' names (spoken and shown), its notes and its messages, each
// read from the message catalogue when used, so they are written in the page's language.
import {
	editorBrush,
	editorCanvas,
	editorCanvasHelp,
	editorClear,
	editorClose,
	editorEmptyMask,
	editorEraser,
	editorExpandCanvas,
	editorExpandCanvasHelp,
	editorFit,
	editorHardness,
	editorImageMissing,
	editorInvert,
	editorLoading,
	editorNoExpansion,
	editorNoModelExpand,
	editorNoModelRegion,
	editorPerSide,
	editorPerSideHelp,
	editorPrompt,
	editorPromptHelpExpand,
	editorPromptHelpRegion,
	editorRedo,
	editorShowMask,
	editorSideBottom,
	editorSideLeft,
	editorSideRight,
	editorSideTop,
	editorSize,
	editorStartedExpand,
	editorStartedRegion,
	editorSubmit,
	editorSubmitting,
	editorTargetRatio,
	editorTitleExpand,
	editorTitleRegion,
	editorTools,
	editorUndo,
	editorZoom,
	editorZoomIn,
	editorZoomOut,
} from "../../../../shared/i18n/messages";

export const EDITOR_TEXTS = {
	title: {
		get region() {
			return editorTitleRegion();
		},
		get expand() {
			return editorTitleExpand();
		},
	},
	get close() {
		return editorClose();
	},
	get tools() {
		return editorTools();
	},
	get brush() {
		return editorBrush();
	},
	get eraser() {
		return editorEraser();
	},
	get size() {
		return editorSize();
	},
	get hardness() {
		return editorHardness();
	},
	get invertMask() {
		return editorInvert();
	},
	get clear() {
		return editorClear();
	},
	get undo() {
		return editorUndo();
	},
	get redo() {
		return editorRedo();
	},
	get showMask() {
		return editorShowMask();
	},
	get zoomIn() {
		return editorZoomIn();
	},
	get zoomOut() {
		return editorZoomOut();
	},
	get fit() {
		return editorFit();
	},
	get zoom() {
		return editorZoom();
	},
	/** The painting area's name; how to paint without a pointer is its description. */
	get canvas() {
		return editorCanvas();
	},
	get canvasHelp() {
		return editorCanvasHelp();
	},
	get expandCanvas() {
		return editorExpandCanvas();
	},
	get expandCanvasHelp() {
		return editorExpandCanvasHelp();
	},
	get targetRatio() {
		return editorTargetRatio();
	},
	get perSide() {
		return editorPerSide();
	},
	sides: {
		get left() {
			return editorSideLeft();
		},
		get right() {
			return editorSideRight();
		},
		get top() {
			return editorSideTop();
		},
		get bottom() {
			return editorSideBottom();
		},
	},
	get perSideHelp() {
		return editorPerSideHelp();
	},
	get prompt() {
		return editorPrompt();
	},
	promptHelp: {
		get region() {
			return editorPromptHelpRegion();
		},
		get expand() {
			return editorPromptHelpExpand();
		},
	},
	get submit() {
		return editorSubmit();
	},
	get submitting() {
		return editorSubmitting();
	},
	started: {
		get region() {
			return editorStartedRegion();
		},
		get expand() {
			return editorStartedExpand();
		},
	},
	get emptyMask() {
		return editorEmptyMask();
	},
	get noExpansion() {
		return editorNoExpansion();
	},
	noModel: {
		get region() {
			return editorNoModelRegion();
		},
		get expand() {
			return editorNoModelExpand();
		},
	},
	get loading() {
		return editorLoading();
	},
	get imageMissing() {
		return editorImageMissing();
	},
};
