import { type SqlBool, sql } from "kysely";
import { serverInvalidCursor } from "../../shared/i18n/messages";
import { AppError } from "../errors/app-error";

/**
 * Keyset paging, shared by the history and the audit log: both list newest first on
 * (created_at, id), so rows added meanwhile never shift a page, and a cursor names the last row
 * shown.
 */
export type PageCursor = { createdAt: Date; id: string };

function encodeCursor(cursor: PageCursor): string {
	return Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}`).toString("base64url");
}

/** The cursor a client sent back; anything we did not make is a validation error. */
export function decodeCursor(value: string | undefined): PageCursor | undefined {
	if (!value) return undefined;
	const [createdAt, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
	const date = new Date(createdAt ?? "");
	if (!id || Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) {
		throw new AppError("VALIDATION_ERROR", serverInvalidCursor);
	}
	return { createdAt: date, id };
}

/** Rows of `table` that come after the cursor's row, newest first (the keyset predicate). */
export function isAfterCursor(table: string, cursor: PageCursor) {
	return sql<SqlBool>`(${sql.ref(`${table}.created_at`)}, ${sql.ref(`${table}.id`)}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
}

/** Rows of `table` that come before the cursor's row: the newer page, read oldest first. */
export function isBeforeCursor(table: string, cursor: PageCursor) {
	return sql<SqlBool>`(${sql.ref(`${table}.created_at`)}, ${sql.ref(`${table}.id`)}) > (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
}

/** The cursor naming a row, for a page that starts or ends there. */
export function cursorOf(row: { created_at: Date; id: string }): string {
	return encodeCursor({ createdAt: row.created_at, id: row.id });
}

/**
 * A page from rows read with one more than `limit`: that extra row only says whether a next page
 * exists, and the cursor names the last row shown.
 */
export function toCursorPage<Row extends { created_at: Date; id: string }, Item>(
	rows: readonly Row[],
	limit: number,
	present: (row: Row) => Item,
): { items: Item[]; nextCursor: string | null } {
	const page = rows.slice(0, limit);
	const last = page.at(-1);
	return {
		items: page.map(present),
		nextCursor:
			rows.length > limit && last
				? encodeCursor({ createdAt: last.created_at, id: last.id })
				: null,
	};
}
