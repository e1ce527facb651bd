import { z } from "zod";
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
	const value = readJobId(jobId, schema);
	if (value === undefined) throw toForeignJobIdError(jobId, providerName);
	return value;
}

/** How a job made of several vendor requests saves them, and reads them back. */
export type BatchJobIds<Ref> = { encode(refs: Ref[]): string; decode(jobId: string): Ref[] };

/**
 * The job ids of a batched job: `{ "provider": …, "<field>": [request, …] }`. `providerName` is
 * written as messages show it (`Replicate`); the saved `provider` is it in lower case, the
 * provider's own name. `field` is named as that vendor's saved ids have always named it.
 */
export function defineBatchJobIds<Ref>(
	providerName: string,
	field: string,
	refSchema: z.ZodType<Ref>,
): BatchJobIds<Ref> {
	const provider = providerName.toLowerCase();
	const SavedSchema = z.looseObject({ provider: z.literal(provider) });
	const RefsSchema = z.array(refSchema).min(1);
	return {
		encode: (refs) => encodeJobId({ provider, [field]: refs }),
		decode: (jobId) => {
			const refs = RefsSchema.safeParse(decodeJobId(jobId, SavedSchema, providerName)[field]);
			if (!refs.success) throw toForeignJobIdError(jobId, providerName);
			return refs.data;
		},
	};
}

function toForeignJobIdError(jobId: string, providerName: string): ProviderError {
	return new ProviderError(
		`Not a job id of the ${providerName} provider: ${describeJobId(jobId)}`,
		{
			retryable: false,
		},
	);
}

/** A saved job id read with its schema; undefined when it is not JSON of that shape. */
export function readJobId<Schema extends z.ZodType>(
	jobId: string,
	schema: Schema,
): z.infer<Schema> | undefined {
	const parsed = schema.safeParse(parseJsonText(jobId));
	return parsed.success ? parsed.data : undefined;
}

/** A job id as error messages quote it: in JSON quotes, cut to a length a log line can hold. */
export function describeJobId(jobId: string): string {
	return JSON.stringify(jobId.slice(0, 200));
}

function parseJsonText(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
