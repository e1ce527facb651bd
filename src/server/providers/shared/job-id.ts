import type { z } from "zod";
import { ProviderError } from "../types";

/**
 * Saved job ids are JSON naming the provider and everything `check` and `cancel` need, so a
 * restarted worker resumes the vendor's job from the saved id alone (docs/decisions/003-http-provider-job-id.md and 004-providers.md).
 */
export function encodeJobId<JobId extends { provider: string }>(value: JobId): string {
	return JSON.stringify(value);
}

/** Reads a saved job id; one this provider did not make fails the generation without retry. */
export function decodeJobId<Schema extends z.ZodType>(
	jobId: string,
	schema: Schema,
	providerName: string,
): z.infer<Schema> {
	const parsed = schema.safeParse(parseJsonText(jobId));
	if (!parsed.success) {
		throw new ProviderError(
			`Not a job id of the ${providerName} provider: ${JSON.stringify(jobId.slice(0, 200))}`,
			{ retryable: false },
		);
	}
	return parsed.data;
}

function parseJsonText(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
