import type { GenerationRow } from "../db/schema";

/**
 * A completed generation's row as the database answers it, without a database: for what reads
 * rows only (the archive writer, its benchmark). Every column not given is what a plain
 * text-to-image generation on the offline engine holds; `at` is its every timestamp (now unless
 * given).
 */
export function buildCompletedRow(
	fields: Pick<GenerationRow, "id" | "images"> & Partial<GenerationRow> & { at?: Date },
): GenerationRow {
	const { at = new Date(), ...given } = fields;
	return {
		user_id: "user-1",
		prompt: `prompt of ${given.id}`,
		aspect_ratio: "--ar 1:1",
		status: "completed",
		provider: "local",
		model_id: "local",
		model_label: "Offline engine",
		image_count: given.images.length,
		seed: null,
		negative_prompt: null,
		quality: null,
		price_per_image: null,
		stored_bytes: null,
		api_id: null,
		polling_url: null,
		error: null,
		status_message: null,
		progress_stage: null,
		progress_percent: null,
		progress_step: null,
		progress_steps: null,
		progress_position: null,
		preview_key: null,
		action: null,
		reference_strength: null,
		upscale_factor: null,
		style_id: null,
		style_name: null,
		styled_prompt: null,
		styled_negative_prompt: null,
		batch_id: null,
		original_prompt: null,
		reference_image: null,
		parent_generation_id: null,
		parent_image_index: null,
		from_upload: false,
		parent_upload_id: null,
		region_mask: null,
		expand_frame: null,
		is_favorite: false,
		attempts: 1,
		lease_owner: null,
		lease_until: null,
		wait_began_at: null,
		deleted_at: null,
		deleted_by: null,
		created_at: at,
		started_at: at,
		completed_at: at,
		updated_at: at,
		...given,
	};
}

/** SQL for a column of rows inserted together: an expression over the rows' source. */
export type ColumnExpressions = Partial<Record<keyof GenerationRow, string>>;

/**
 * `insert into generations (...) select ... from <source>`: many completed rows in one statement
 * (the benchmarks' seed), every column buildCompletedRow's value unless `expressions` gives SQL
 * for it. The column list is the builder's, so a column it gains is inserted here too.
 */
export function insertCompletedRowsSql(source: string, expressions: ColumnExpressions): string {
	const template = buildCompletedRow({ id: "", images: [], image_count: 4 });
	const columns = Object.keys(template) as Array<keyof GenerationRow>;
	const values = columns.map((column) => expressions[column] ?? toSqlLiteral(template[column]));
	return `insert into generations (${columns.join(", ")})\nselect\n\t${values.join(",\n\t")}\nfrom ${source}`;
}

// An untyped literal: INSERT ... SELECT gives it its column's type (text, jsonb, timestamptz).
function toSqlLiteral(value: unknown): string {
	if (value === null || value === undefined) return "null";
	if (typeof value === "boolean" || typeof value === "number") return String(value);
	const text =
		value instanceof Date
			? value.toISOString()
			: typeof value === "string"
				? value
				: JSON.stringify(value);
	return `'${text.replaceAll("'", "''")}'`;
}
