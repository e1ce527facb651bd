// A batch's generations shown together in the generator, as they are made: each one's prompt,
// model, status, first image and the time it took; a link shows the batch in the history. Loaded
// on demand, the first time a batch is started (generation-code.ts), with its start (runBatch).
import { useQuery } from "@tanstack/react-query";
import { Layers } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { AspectRatio } from "../../../../shared/generations/aspect-ratios";
import { batchHistoryPath } from "../../../../shared/generations/batches";
import { formatElapsed } from "../../../../shared/generations/elapsed";
import {
	type CreateBatchResponse,
	CreateBatchResponseSchema,
	type Generation,
	isInProgress,
} from "../../../../shared/generations/generation-responses";
import {
	generatorBatchFinished,
	generatorBatchFinishedUnseeded,
	generatorBatchInHistory,
	generatorBatchOf,
	generatorDone,
	generatorDoneIn,
	generatorStatusFailed,
	generatorStatusGenerating,
	generatorWaiting,
} from "../../../../shared/i18n/messages";
import { Thumbnail } from "../../../components/images/thumbnail";
import { requestApi } from "../../../lib/api/api-client";
import { subscribeToGenerations } from "../../../lib/generations/generation-stream";
import { fetchGenerationsPage } from "../../../lib/generations/generations-requests";
import type { BatchRequest } from "../settings/batch-choice";
import { type SettingsChoice, toRequestedSettings } from "../settings/generation-choice";

/** The form's batch (decision 038): starting (Generate is busy), then started and shown here. */
export type BatchRun = { batch?: CreateBatchResponse };

/** What the form holds when Generate starts a batch. */
export type BatchForm = {
	prompt: string;
	aspectRatio: AspectRatio;
	choice: SettingsChoice | null;
	batchRequest: BatchRequest;
	boardIds: readonly string[];
};

/**
 * Starts a batch, the form's request with its batch part (the compared models, else the model
 * chosen): `setRun` hears it started, `onRefused` why not. Here rather than in the form, so that
 * the first page carries no batch code.
 */
export async function runBatch(
	{ prompt, aspectRatio, choice, batchRequest, boardIds }: BatchForm,
	setRun: (run: BatchRun | null) => void,
	onRefused: (message: string) => void,
): Promise<void> {
	const { model, ...settings } = choice ? toRequestedSettings(choice) : {};
	const body = {
		prompt,
		aspectRatio,
		...settings,
		...(batchRequest.models ? {} : { model }),
		...batchRequest,
		...(boardIds.length > 0 ? { boards: boardIds } : {}),
	};
	try {
		const batch = await requestApi("/api/generations", CreateBatchResponseSchema, {
			method: "POST",
			body: JSON.stringify(body),
		});
		setRun({ batch });
	} catch (error) {
		setRun(null);
		onRefused(error instanceof Error ? error.message : String(error));
	}
}

const POLL_MS = 2_000;

function describeStatus(generation: Generation): string {
	if (generation.status === "completed") {
		const completed = generation.completed_at ? Date.parse(generation.completed_at) : Number.NaN;
		const took = completed - Date.parse(generation.created_at);
		return Number.isFinite(took)
			? generatorDoneIn({ elapsed: formatElapsed(took) })
			: generatorDone();
	}
	if (generation.status === "failed") return generation.error ?? generatorStatusFailed();
	return generation.status === "queued" ? generatorWaiting() : generatorStatusGenerating();
}

export function BatchResults({ batch }: { batch: CreateBatchResponse }) {
	// The page's stream says when a member's status moves; the list is polled only without it.
	const [isStreamed, setIsStreamed] = useState(true);
	const { data, refetch } = useQuery({
		queryKey: ["generations", "batch", batch.batchId],
		queryFn: ({ signal }) =>
			fetchGenerationsPage({ limit: 50, query: { batchId: batch.batchId }, signal }),
		refetchInterval: (query) =>
			isStreamed || query.state.data?.items.some((item) => isInProgress(item.status)) === false
				? false
				: POLL_MS,
	});
	const statuses = new Map((data?.items ?? []).map((item) => [item.id, item.status]));
	const statusKey = JSON.stringify([...statuses]);
	// biome-ignore lint/correctness/useExhaustiveDependencies: `statusKey` stands for `statuses`.
	useEffect(() => {
		const inProgress = [...statuses].filter(([, status]) => isInProgress(status));
		if (data && inProgress.length === 0) return;
		return subscribeToGenerations({
			onGeneration: (id, answer) => {
				const known = statuses.get(id);
				if (known !== undefined && known !== answer.status) void refetch();
			},
			onActive: (ids) => {
				if (inProgress.some(([id]) => !ids.includes(id))) void refetch();
			},
			onUnavailable: () => setIsStreamed(false),
		});
	}, [statusKey, refetch]);
	const byId = new Map((data?.items ?? []).map((item) => [item.id, item]));
	const finished = (data?.items ?? []).filter((item) => !isInProgress(item.status)).length;
	return (
		<section
			aria-labelledby={`batch-${batch.batchId}`}
			className="space-y-4 rounded-2xl bg-white/90 p-5 shadow-card ring-1 ring-slate-200/80 sm:p-6"
		>
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h2
					id={`batch-${batch.batchId}`}
					className="inline-flex items-center gap-2 text-lg font-semibold text-slate-900"
				>
					<Layers aria-hidden="true" className="size-5" />
					{generatorBatchOf({ size: batch.generations.length })}
				</h2>
				<Link
					to={batchHistoryPath(batch.batchId)}
					className="text-sm font-medium text-accent-700 hover:underline"
				>
					{generatorBatchInHistory()}
				</Link>
			</div>
			<p aria-live="polite" className="text-sm text-slate-600">
				{batch.seed === null
					? generatorBatchFinishedUnseeded({ finished, total: batch.generations.length })
					: generatorBatchFinished({
							finished,
							total: batch.generations.length,
							// A seed is an identifier, written without a thousands separator.
							seed: String(batch.seed),
						})}
			</p>
			<ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
				{batch.generations.map((started) => {
					const generation = byId.get(started.id);
					const image = generation?.images[0];
					return (
						<li
							key={started.id}
							className="flex gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset"
						>
							<div className="size-20 shrink-0 overflow-hidden rounded-lg bg-slate-200">
								{image ? <Thumbnail image={image} className="size-full object-cover" /> : null}
							</div>
							<div className="min-w-0 space-y-1 text-sm">
								<p className="font-medium break-words text-slate-900">{started.prompt}</p>
								<p className="text-slate-600">{started.model.label}</p>
								<p className="text-slate-600">
									{generation ? describeStatus(generation) : generatorWaiting()}
								</p>
							</div>
						</li>
					);
				})}
			</ul>
		</section>
	);
}
