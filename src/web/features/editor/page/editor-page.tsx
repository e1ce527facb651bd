// The mask editor at /edit: Edit region (paint what may change) or Expand (a larger frame) on one
// image of the person's own, full-window, loaded only when opened. The form beside it (below it on
// a phone) starts a generation made from the image, which the history then shows running.

import { useQueryClient } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { APP_PATHS } from "../../../../shared/core/app-routes";
import type { PublicModel } from "../../../../shared/generations/models";
import { errorUnknownError } from "../../../../shared/i18n/messages";
import { validatePrompt } from "../../../../shared/prompts/prompt";
import { Spinner } from "../../../components/basics/spinner";
import { ApiError } from "../../../lib/api/api-client";
import { type EditorLink, readEditorLink } from "../../../lib/generations/image-actions";
import { useOfferedModels } from "../../../lib/generations/models-requests";
import { showToast } from "../../../lib/ui/toast";
import { EDITOR_TEXTS } from "../mask/editor-texts";
import { isMaskEmpty } from "../mask/mask-brush";
import { readMaskImage } from "../mask/mask-overlay";
import { type MaskEditor, useMaskEditor } from "../mask/use-mask-editor";
import { type ExpandChoice, ExpandEditor, initialExpandChoice } from "../tools/expand-editor";
import { addsPixels } from "../tools/expand-geometry";
import { RegionEditor } from "../tools/region-editor";
import { chooseStartModel, EditorForm } from "./editor-form";
import { type EditSettings, submitEdit } from "./submit-edit";
import { type EditorSourceImage, useEditorSource } from "./use-editor-source";

export function EditorPage() {
	const { search } = useLocation();
	const link = useMemo(() => readEditorLink(search), [search]);
	if (!link) return <EditorMessage text={EDITOR_TEXTS.imageMissing} />;
	return <LoadedEditor key={search} link={link} />;
}

function LoadedEditor({ link }: { link: EditorLink }) {
	const state = useEditorSource(link);
	const models = useOfferedModels();
	if (state.status === "missing") return <EditorMessage text={EDITOR_TEXTS.imageMissing} />;
	if (state.status === "loading" || !models.data) {
		return (
			<EditorFrame tool={link.tool}>
				<div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
					<Spinner />
					{EDITOR_TEXTS.loading}
				</div>
			</EditorFrame>
		);
	}
	const capable = models.data.models.filter((model) =>
		link.tool === "region" ? model.mask === true : model.outpaint === true,
	);
	const model = chooseStartModel(capable, state.source.modelId, models.data.defaultModelId);
	if (!model) return <EditorMessage text={EDITOR_TEXTS.noModel[link.tool]} />;
	return (
		<EditorWorkspace
			link={link}
			source={state.source}
			image={state.image}
			models={capable}
			model={model}
		/>
	);
}

function EditorWorkspace({
	link,
	source,
	image,
	models,
	model,
}: {
	link: EditorLink;
	source: EditorSourceImage;
	image: HTMLImageElement | null;
	models: PublicModel[];
	model: PublicModel;
}) {
	const size = useMemo(
		() => ({ width: source.width, height: source.height }),
		[source.width, source.height],
	);
	const editor = useMaskEditor(size);
	const [expand, setExpand] = useState<ExpandChoice>(() =>
		source.placement ? { ratio: null, placement: source.placement } : initialExpandChoice(size),
	);
	const [message, setMessage] = useState<string | null>(null);
	const [isSubmitting, setIsSubmitting] = useState(false);
	const queryClient = useQueryClient();
	const navigate = useNavigate();
	useReopenedMask(link.tool === "region" ? source.maskUrl : null, size, editor);

	const submit = async (settings: EditSettings) => {
		const prompt = validatePrompt(settings.prompt);
		if (!prompt.ok) return setMessage(prompt.message);
		if (link.tool === "region" && isMaskEmpty(editor.maskRef.current)) {
			return setMessage(EDITOR_TEXTS.emptyMask);
		}
		if (link.tool === "expand" && !addsPixels(size, expand.placement)) {
			return setMessage(EDITOR_TEXTS.noExpansion);
		}
		setMessage(null);
		setIsSubmitting(true);
		try {
			await submitEdit(
				link.source,
				link.tool === "region"
					? { tool: "region", mask: editor.maskRef.current }
					: { tool: "expand", placement: expand.placement },
				{ ...settings, prompt: prompt.prompt },
			);
			void showToast("success", EDITOR_TEXTS.started[link.tool]);
			// The history shows the new generation running, then Made from its source.
			await queryClient.invalidateQueries();
			void navigate(APP_PATHS.generations);
		} catch (error) {
			setMessage(error instanceof ApiError ? error.message : errorUnknownError());
			setIsSubmitting(false);
		}
	};

	return (
		<EditorFrame tool={link.tool}>
			<div className="flex min-h-0 flex-1 flex-col md:flex-row">
				{link.tool === "region" ? (
					<RegionEditor image={image} size={size} editor={editor} />
				) : (
					<ExpandEditor image={image} size={size} choice={expand} onChange={setExpand} />
				)}
				<aside className="max-h-[55dvh] shrink-0 overflow-y-auto border-t border-slate-200 bg-white p-4 md:max-h-[calc(100dvh-4rem)] md:w-80">
					<EditorForm
						tool={link.tool}
						models={models}
						initial={{ prompt: source.prompt, model, count: source.count, seed: source.seed }}
						isSubmitting={isSubmitting}
						message={message}
						onSubmit={(settings) => void submit(settings)}
					/>
				</aside>
			</div>
		</EditorFrame>
	);
}

/** Use settings on an edit: its recorded mask, painted again (and undoable, like any edit). */
function useReopenedMask(
	maskUrl: string | null,
	size: { width: number; height: number },
	editor: MaskEditor,
) {
	const { load } = editor;
	// biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per editor opened
	useEffect(() => {
		if (!maskUrl) return;
		const controller = new AbortController();
		void (async () => {
			try {
				const response = await fetch(maskUrl, { signal: controller.signal });
				if (!response.ok) return;
				const values = await readMaskImage(await response.blob(), size);
				if (values && !controller.signal.aborted) load(values);
			} catch {
				// Without its mask the editor opens empty, as a new edit would.
			}
		})();
		return () => controller.abort();
	}, []);
}

/** The full-window frame: the tool's name and the way back. */
function EditorFrame({ tool, children }: { tool: EditorLink["tool"]; children: React.ReactNode }) {
	const navigate = useNavigate();
	const location = useLocation();
	const close = () => {
		// Back where the editor was opened from, or the history for a link opened on its own.
		if (location.key !== "default") void navigate(-1);
		else void navigate(APP_PATHS.generations);
	};
	return (
		<div className="fixed inset-0 z-dialog flex flex-col bg-white">
			<header className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
				<h1 className="text-base font-semibold text-slate-900">{EDITOR_TEXTS.title[tool]}</h1>
				<button
					type="button"
					onClick={close}
					aria-label={EDITOR_TEXTS.close}
					title={EDITOR_TEXTS.close}
					className="inline-flex size-10 cursor-pointer items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-accent-600 focus-visible:outline-none"
				>
					<X aria-hidden="true" className="size-5" />
				</button>
			</header>
			{children}
		</div>
	);
}

function EditorMessage({ text }: { text: string }) {
	return (
		<EditorFrame tool="region">
			<div className="flex flex-1 items-center justify-center p-6">
				<p role="alert" className="text-sm text-slate-700">
					{text}
				</p>
			</div>
		</EditorFrame>
	);
}
