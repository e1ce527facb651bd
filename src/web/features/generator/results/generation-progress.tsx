import { CircleSlash, Clock, Cpu, Info, TriangleAlert } from "lucide-react";
import { IMAGES_PER_GENERATION } from "../../../../shared/core/constants";
import { findAspectRatio } from "../../../../shared/generations/aspect-ratios";
import { formatElapsed } from "../../../../shared/generations/elapsed";
import {
	clampProgressLabelPosition,
	describeProgress,
} from "../../../../shared/generations/progress";
import {
	generatorCancel,
	generatorElapsed,
	generatorModelPrefix,
	generatorPreviewAlt,
	generatorProgressBusy,
	generatorProgressLabel,
	generatorProgressTitle,
	generatorRetrying,
} from "../../../../shared/i18n/messages";
import { Button } from "../../../components/basics/button";
import { describeRecipe } from "../flow/describe-recipe";
import type { RunningState } from "../flow/generation-state";
import { readProgress } from "../flow/read-progress";

type GenerationProgressProps = {
	state: RunningState;
	elapsedMs: number | null;
	onCancel: () => void;
};

/** How many images are on their way: what the server answered, else what was asked, else 4. */
function readImageCount(state: RunningState): number {
	const answered = state.phase === "following" ? state.recipe?.settings.count : undefined;
	return answered ?? state.request.settings?.count ?? IMAGES_PER_GENERATION;
}

/** The result panel while a generation is under way: progress, elapsed time and a way out. */
export function GenerationProgress({ state, elapsedMs, onCancel }: GenerationProgressProps) {
	const progress = readProgress(state);
	const ratio = findAspectRatio(state.request.aspectRatio);
	// Why the last poll failed while it is retried, shown quietly: the wait goes on. And what the
	// server said with its last "not yet", if anything.
	const { pollProblem, serverNote } =
		state.phase === "following" ? state : { pollProblem: null, serverNote: null };
	const report = state.phase === "following" ? state.report : null;
	const stageText = describeProgress(report);
	const previewUrl = report?.previewUrl ?? null;
	const imageShape = { aspectRatio: `${ratio.width} / ${ratio.height}` };
	return (
		<div className="flex flex-1 flex-col">
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div>
					<h2 className="text-lg font-semibold text-slate-900">{generatorProgressTitle()}</h2>
					<p className="mt-1 text-sm text-slate-600">{generatorProgressBusy()}</p>
				</div>
				<Button variant="secondary" size="sm" onClick={onCancel}>
					<CircleSlash aria-hidden="true" className="size-4" />
					{generatorCancel()}
				</Button>
			</div>

			<div className="mt-8">
				<div className="relative h-6">
					<span
						aria-hidden="true"
						className="absolute top-0 -translate-x-1/2 rounded-md bg-accent-600 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums transition-[left] duration-500 ease-out"
						style={{ left: `${clampProgressLabelPosition(progress)}%` }}
					>
						{progress}%
					</span>
				</div>
				<div
					role="progressbar"
					aria-label={generatorProgressLabel()}
					aria-valuemin={0}
					aria-valuemax={100}
					aria-valuenow={progress}
					className="mt-1.5 h-2.5 overflow-hidden rounded-full bg-slate-200"
				>
					<div
						className="h-full rounded-full bg-gradient-to-r from-accent-500 to-accent-700 transition-[width] duration-500 ease-out"
						style={{ width: `${progress}%` }}
					/>
				</div>
				{/* What is happening, as the server reports it; polite, so it is heard as it changes. */}
				<p aria-live="polite" className="mt-3 h-5 text-sm font-medium text-slate-900">
					{stageText}
				</p>
				<p className="mt-2 flex items-center gap-1.5 text-sm text-slate-600">
					<Clock aria-hidden="true" className="size-4" />
					{generatorElapsed()}{" "}
					<span className="font-medium text-slate-900 tabular-nums">
						{formatElapsed(elapsedMs)}
					</span>
				</p>
				{state.phase === "following" && state.recipe ? (
					<p className="mt-2 flex items-center gap-1.5 text-sm text-slate-600">
						<Cpu aria-hidden="true" className="size-4" />
						<span className="sr-only">{`${generatorModelPrefix()} `}</span>
						{describeRecipe(state.recipe)}
					</p>
				) : null}
				{serverNote && !pollProblem ? (
					<p className="mt-2 flex items-start gap-1.5 text-sm text-slate-700">
						<Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-600" />
						<span>{serverNote}</span>
					</p>
				) : null}
				{pollProblem ? (
					<p className="mt-2 flex items-start gap-1.5 text-sm text-amber-800">
						<TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
						<span>
							<strong className="font-semibold">{generatorRetrying()}</strong> · {pollProblem}
						</span>
					</p>
				) : null}
			</div>

			{/* Where the images will appear, in their shape, so nothing jumps when they arrive. The
			    latest preview takes the first place, dimmed: it is not a result yet. */}
			<ul className="mt-8 flex gap-3 overflow-hidden sm:gap-4">
				{previewUrl ? (
					<li
						className="h-28 shrink-0 overflow-hidden rounded-xl bg-slate-100 sm:h-40"
						style={imageShape}
					>
						<img
							src={previewUrl}
							alt={generatorPreviewAlt()}
							data-dimmed="true"
							className="size-full object-cover opacity-60"
						/>
					</li>
				) : null}
				{Array.from(
					{ length: Math.max(0, readImageCount(state) - (previewUrl ? 1 : 0)) },
					(_, index) => (
						<li
							// biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
							key={index}
							aria-hidden="true"
							className="h-28 shrink-0 animate-pulse rounded-xl bg-gradient-to-br from-slate-100 to-slate-200 sm:h-40"
							style={imageShape}
						/>
					),
				)}
			</ul>
		</div>
	);
}
