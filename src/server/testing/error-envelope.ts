import { expect } from "vitest";
import type { ErrorCode } from "../../shared/core/errors";
import { ErrorEnvelopeSchema } from "../../shared/generations/generation-responses";

/** Asserts an error answer: its status, a JSON error envelope and its code; returns the message. */
export async function expectErrorEnvelope(
	response: Response,
	status: number,
	code: ErrorCode,
): Promise<string> {
	expect(response.status).toBe(status);
	expect(response.headers.get("content-type")).toMatch(/^application\/json/);
	const envelope = ErrorEnvelopeSchema.parse(await response.json());
	expect(envelope.error.code).toBe(code);
	return envelope.error.message;
}
