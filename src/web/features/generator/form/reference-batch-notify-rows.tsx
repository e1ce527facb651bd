// The settings' last rows: the reference image (reference-image-field.tsx), Variations and Compare
// models for a signed-in person (batch-field.tsx), and Notify me when done with its sound
// (notify-switches.tsx).
import { useEffect, useMemo, useState } from "react";
import type { PublicModel } from "../../../../shared/generations/models";
import { ReferenceImageField } from "../reference/reference-image-field";
import type { ReferenceImageControls } from "../reference/use-reference-image";
import {
	type BatchChoice,
	type BatchRequest,
	NO_BATCH,
	toBatchRequest,
} from "../settings/batch-choice";
import { BatchField } from "../settings/batch-field";
import { NotifySwitches } from "./notify-switches";

type ReferenceBatchNotifyRowsProps = {
	isSignedIn: boolean;
	models: readonly PublicModel[];
	model: PublicModel;
	count: number;
	/** The form's reference image, shown and changed here. */
	reference: ReferenceImageControls;
	/** The prompt box's text, whose {a|b} choices Variations makes. */
	prompt: string;
	/** What Variations and Compare models ask of the next start (null: one generation). */
	onBatchRequestChange?: (request: BatchRequest | null) => void;
};

export function ReferenceBatchNotifyRows({
	isSignedIn,
	models,
	model,
	count,
	reference,
	prompt,
	onBatchRequestChange,
}: ReferenceBatchNotifyRowsProps) {
	const [batchChoice, setBatchChoice] = useState<BatchChoice>(NO_BATCH);
	const batchRequest = useMemo(() => toBatchRequest(batchChoice, prompt), [batchChoice, prompt]);
	useEffect(() => {
		onBatchRequestChange?.(batchRequest);
	}, [batchRequest, onBatchRequestChange]);
	return (
		<>
			<ReferenceImageField model={model} reference={reference} />
			{isSignedIn ? (
				<BatchField
					prompt={prompt}
					models={models}
					model={model}
					count={count}
					value={batchChoice}
					onChange={setBatchChoice}
				/>
			) : null}
			<NotifySwitches />
		</>
	);
}
