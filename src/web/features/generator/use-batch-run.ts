import { useCallback, useState } from "react";
import type { CreateBatchResponse } from "../../../shared/generation-responses";
import type { BatchRequest } from "./batch-choice";
import { loadBatchResults } from "./generation-code";

/**
 * The generator's batch (decision 038): what the batch controls ask for (set by batch-field.tsx,
 * in the settings' chunk, so the first page carries no batch code), its start, and the batch
 * started, which the results' column then shows (batch-results.tsx, loaded on first use).
 */
export function useBatchRun() {
	const [batchRequest, setBatchRequest] = useState<BatchRequest | null>(null);
	const [startedBatch, setStartedBatch] = useState<CreateBatchResponse | null>(null);
	const [isStartingBatch, setIsStartingBatch] = useState(false);

	const startBatchRun = useCallback(
		(body: Record<string, unknown> & BatchRequest, onRefused: (message: string) => void) => {
			setIsStartingBatch(true);
			setStartedBatch(null);
			loadBatchResults()
				.then(({ startBatch }) => startBatch(body))
				.then(setStartedBatch)
				.catch((error: unknown) =>
					onRefused(error instanceof Error ? error.message : String(error)),
				)
				.finally(() => setIsStartingBatch(false));
		},
		[],
	);
	const clearBatch = useCallback(() => setStartedBatch(null), []);
	return {
		batchRequest,
		setBatchRequest,
		startedBatch,
		isStartingBatch,
		startBatchRun,
		clearBatch,
	};
}
