import {
	GenerationIdSchema,
	GenerationIdsRequestSchema,
} from "../../shared/generations/generations";
import { AppError, type LocalizedMessage } from "../errors/app-error";
import { writeInLanguage } from "../i18n/request-language";

/** A zod or zod/mini schema: either parses a request's input the same way. */
type InputSchema<T> = {
	safeParse(
		value: unknown,
	): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
};

/**
 * A request's input parsed by its schema from src/shared, or VALIDATION_ERROR with the first
 * problem's message (else `fallbackMessage`, else the catalogue's).
 */
export function parseOrThrow<T>(
	schema: InputSchema<T>,
	value: unknown,
	fallbackMessage?: string | LocalizedMessage,
): T {
	const result = schema.safeParse(value);
	if (!result.success) {
		const english = result.error.issues[0]?.message;
		if (english === undefined) throw new AppError("VALIDATION_ERROR", fallbackMessage);
		// A schema's messages from the catalogue are made as its issues are read: parsed and read
		// again in the request's language when the refusal is written in it.
		throw new AppError("VALIDATION_ERROR", ({ language }) =>
			writeInLanguage(language, () => {
				const again = schema.safeParse(value);
				return again.success ? english : (again.error.issues[0]?.message ?? english);
			}),
		);
	}
	return result.data;
}

/**
 * An id in a path (a generation's, a run's, a token's by default). Not an id of ours: the same
 * answer as someone else's id, without asking the database.
 */
export function parseId(
	value: string,
	schema: { safeParse(value: unknown): { success: boolean } } = GenerationIdSchema,
): string {
	if (!schema.safeParse(value).success) throw new AppError("NOT_FOUND");
	return value;
}

/** A position in a path, as an image's index. */
export function parseImageIndex(value: string): number {
	// Not a position of ours: the same answer as an image that does not exist.
	if (!/^\d{1,3}$/.test(value)) throw new AppError("NOT_FOUND");
	return Number(value);
}

/** A JSON body; one that is not JSON is VALIDATION_ERROR. */
export async function readJson(request: { json(): Promise<unknown> }): Promise<unknown> {
	return request.json().catch(() => {
		throw new AppError("VALIDATION_ERROR");
	});
}

/**
 * The ids of a request about several generations: JSON `{ "ids": [...] }`, or a plain HTML form's
 * `ids=<id>&ids=<id>` (so the browser downloads an archive natively).
 */
export async function readIds(request: {
	header(name: string): string | undefined;
	json(): Promise<unknown>;
	parseBody(options: { all: true }): Promise<Record<string, unknown>>;
}): Promise<string[]> {
	const type = request.header("content-type")?.toLowerCase() ?? "";
	let body: unknown;
	if (
		type.startsWith("application/x-www-form-urlencoded") ||
		type.startsWith("multipart/form-data")
	) {
		const form = await request.parseBody({ all: true }).catch(() => {
			throw new AppError("VALIDATION_ERROR");
		});
		const ids = form.ids ?? [];
		body = { ids: Array.isArray(ids) ? ids : [ids] };
	} else {
		body = await readJson(request);
	}
	return parseOrThrow(GenerationIdsRequestSchema, body).ids;
}
