import type { FailureReason } from "../../shared/admin/usage-responses";
import { GENERATION_MESSAGES } from "../../shared/generations/generation-flow";
import { MODEL_NO_LONGER_OFFERED } from "../../shared/generations/generation-settings";
import { PROVIDER_MESSAGES } from "../providers/shared/provider-messages";

// The messages a failed generation stores are the ones people were shown; each known one belongs
// to one reason. Kept beside PROVIDER_MESSAGES' names so a new message is placed where it is read.
const REASON_OF_MESSAGE = new Map<string, FailureReason>([
	[GENERATION_MESSAGES.timedOut, "TIMED_OUT"],
	[PROVIDER_MESSAGES.refused, "VALIDATION_ERROR"],
	[PROVIDER_MESSAGES.credentials, "AUTH_ERROR"],
	[PROVIDER_MESSAGES.noCredit, "AUTH_ERROR"],
	[PROVIDER_MESSAGES.busy, "API_ERROR"],
	[PROVIDER_MESSAGES.expired, "API_ERROR"],
	[PROVIDER_MESSAGES.cancelled, "API_ERROR"],
	[PROVIDER_MESSAGES.lost, "API_ERROR"],
	[PROVIDER_MESSAGES.noImages, "API_ERROR"],
	[GENERATION_MESSAGES.noPollingUrl, "API_ERROR"],
	[MODEL_NO_LONGER_OFFERED, "MODEL_REMOVED"],
	[GENERATION_MESSAGES.failed, "UNKNOWN_ERROR"],
]);

// The catalogue's start and poll errors without a message of the service's own (SPEC.md section 8).
const HTTP_STATUS_MESSAGE = /^(Polling )?HTTP \d{3}$/;
const REFUSED_WORKFLOW_PREFIX = "ComfyUI refused the workflow";

/** The reason a failed generation's stored message stands for; UNKNOWN_ERROR for any other text. */
export function classifyFailure(message: string | null): FailureReason {
	if (message === null) return "UNKNOWN_ERROR";
	const known = REASON_OF_MESSAGE.get(message);
	if (known) return known;
	if (HTTP_STATUS_MESSAGE.test(message)) return "API_ERROR";
	if (message.startsWith(REFUSED_WORKFLOW_PREFIX)) return "VALIDATION_ERROR";
	return "UNKNOWN_ERROR";
}
