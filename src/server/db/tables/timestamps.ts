import type { ColumnType } from "kysely";

/** A timestamp column: read as a Date, written as a Date or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<
	Date | null,
	Date | string | null | undefined,
	Date | string | null
>;
