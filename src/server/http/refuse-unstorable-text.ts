import type { MiddlewareHandler } from "hono";
import {
	findUnstorableField,
	hasUnstorableCharacter,
	unstorableTextMessage,
} from "../../shared/core/storable-text";
import { AppError } from "../errors/app-error";

/** The request bodies whose text is read here: JSON and plain HTML forms. */
function bodyKind(contentType: string | undefined): "json" | "form" | undefined {
	const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
	if (type === "application/json" || type.endsWith("+json")) return "json";
	if (type === "application/x-www-form-urlencoded") return "form";
	return undefined;
}

async function readBodyFields(request: Request): Promise<unknown> {
	const kind = bodyKind(request.headers.get("content-type") ?? undefined);
	if (kind === undefined || request.body === null) return undefined;
	// A copy: the route (ours or Better Auth's) reads the body itself.
	const text = await request.clone().text();
	if (kind === "form") {
		const fields: Record<string, string[]> = {};
		for (const [name, value] of new URLSearchParams(text)) {
			fields[name] = [...(fields[name] ?? []), value];
		}
		return fields;
	}
	try {
		return JSON.parse(text);
	} catch {
		// Not JSON: the route answers that in its own words.
		return undefined;
	}
}

/**
 * Every text Atelier takes is refused, 400 naming the field, when it holds a character the
 * database cannot hold (shared/core/storable-text.ts): the query's parameters and the JSON or form body
 * of every route under /api, ours and Better Auth's, before any route reads them. Without it a NUL
 * reached PostgreSQL and PGlite, which refuse it (a 500), and a lone surrogate was stored changed.
 * Path parameters are ids and keys checked by their routes; headers cannot carry either.
 */
export function refuseUnstorableText(): MiddlewareHandler {
	return async (context, next) => {
		for (const [name, values] of Object.entries(context.req.queries())) {
			if (hasUnstorableCharacter(name) || values.some(hasUnstorableCharacter)) {
				throw new AppError("VALIDATION_ERROR", unstorableTextMessage(name));
			}
		}
		const field = findUnstorableField(await readBodyFields(context.req.raw));
		if (field !== undefined) throw new AppError("VALIDATION_ERROR", unstorableTextMessage(field));
		return next();
	};
}
