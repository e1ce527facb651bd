import { CircleAlert } from "lucide-react";
import { lazy, type ReactNode, type Ref, Suspense } from "react";
import { generatorResult } from "../../../../shared/i18n/messages";
import { Spinner } from "../../../components/basics/spinner";
import {
	type GeneratedRequest,
	type GenerationState,
	isGenerationRunning,
} from "../flow/generation-state";
import { EmptyState } from "../results/empty-state";
import type { EditTarget } from "../results/result-image";
import {
	loadErrorFollowUp,
	loadGenerationProgress,
	loadGenerationResults,
} from "./generation-code";

const GenerationProgress = lazy(async () => ({
	default: (await loadGenerationProgress()).GenerationProgress,
}));
const GenerationResults = lazy(async () => ({
	default: (await loadGenerationResults()).GenerationResults,
}));
const ErrorFollowUp = lazy(async () => ({
	default: (await loadErrorFollowUp()).ErrorFollowUp,
}));

function PanelLoading() {
	return (
		<div className="flex flex-1 items-center justify-center py-16 text-accent-600">
			<Spinner size="lg" />
		</div>
	);
}

type ResultPanelProps = {
	ref: Ref<HTMLElement>;
	state: GenerationState;
	isSignedIn: boolean;
	verificationAction?: ReactNode;
	elapsedMs: number | null;
	onCancel: () => void;
	onRetry: (request: GeneratedRequest) => void;
	onPickExample: (prompt: string) => void;
	onOpenImage: (index: number, opener: HTMLElement) => void;
	/** The form Edit fills: the image as its reference, with its prompt and ratio. */
	editTarget: EditTarget;
};

/** The right panel: busy, the error, the results or the empty state (SPEC.md section 2). */
export function ResultPanel({
	ref,
	state,
	isSignedIn,
	verificationAction,
	elapsedMs,
	onCancel,
	onRetry,
	onPickExample,
	onOpenImage,
	editTarget,
}: ResultPanelProps) {
	const isRunning = isGenerationRunning(state);
	const error = state.phase === "failed" ? state.message : null;
	let content: ReactNode;
	if (isRunning) {
		content = (
			<Suspense fallback={<PanelLoading />}>
				<GenerationProgress state={state} elapsedMs={elapsedMs} onCancel={onCancel} />
			</Suspense>
		);
	} else if (state.phase === "failed") {
		content = (
			<Suspense fallback={null}>
				<ErrorFollowUp
					error={state.message}
					request={state.request}
					isSignedIn={isSignedIn}
					verificationAction={verificationAction}
					onRetry={onRetry}
				/>
			</Suspense>
		);
	} else if (state.phase === "completed" && state.images.length > 0) {
		content = (
			<Suspense fallback={<PanelLoading />}>
				<GenerationResults
					generation={state}
					elapsedMs={elapsedMs}
					onOpenImage={onOpenImage}
					onStart={onRetry}
					editTarget={editTarget}
				/>
			</Suspense>
		);
	} else {
		content = <EmptyState onPickExample={onPickExample} />;
	}

	return (
		<section
			ref={ref}
			aria-label={generatorResult()}
			aria-busy={isRunning}
			className="flex min-h-64 min-w-0 scroll-mt-20 flex-col rounded-2xl bg-white/90 p-5 shadow-card ring-1 ring-slate-200/80 sm:p-6 lg:min-h-[26rem]"
		>
			{/* Always mounted, so screen readers announce a message the moment it appears. */}
			<div role="alert">
				{error ? (
					<p className="flex items-start gap-2.5 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200 ring-inset">
						<CircleAlert aria-hidden="true" className="mt-px size-4 shrink-0 text-red-600" />
						<span>{error}</span>
					</p>
				) : null}
			</div>
			{content}
		</section>
	);
}
