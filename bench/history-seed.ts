// The history benchmarks' data: generations seeded by SQL, shaped as the app stores them (not a
// benchmark itself; bench/run.mjs runs only the names it lists).

import type { Database } from "../src/server/db/database";
import { insertCompletedRowsSql } from "../src/server/testing/generation-row";

const BATCH = 1_000;

// Prompts made of three parts, each row its own mix: one subject of 20 ("lighthouse" and "fox"
// are one in 20 each), one light of 12 (half of them contain "light": "moonlight", "lighting", ...)
// and one style of 10. Every 20th generation is a favourite.
const SUBJECTS = [
	"a lighthouse at dusk",
	"a quiet forest lake at dawn",
	"an anime boy with blue hair",
	"a woman soldier in a black suit",
	"an hourglass on a study desk",
	"a red fox in the snow",
	"a city street in the rain",
	"a cup of coffee on a wooden table",
	"a mountain cabin under the stars",
	"a vintage car on a desert road",
	"a koi pond in a japanese garden",
	"a robot reading a book",
	"a field of sunflowers",
	"an astronaut floating above the earth",
	"a cat sleeping on a windowsill",
	"a steaming bowl of ramen",
	"a medieval castle on a cliff",
	"a jellyfish in deep water",
	"a portrait of an old fisherman",
	"a hot air balloon over the valley",
];
const LIGHTS = [
	"volumetric light",
	"golden hour",
	"soft morning light",
	"overcast sky",
	"neon lighting",
	"dramatic shadows",
	"moonlight",
	"pastel colors",
	"candlelight",
	"misty atmosphere",
	"cinematic lighting",
	"high contrast",
];
const STYLES = [
	"35mm photograph",
	"oil painting",
	"watercolor",
	"steampunk, intricate details, 8k",
	"studio ghibli style",
	"digital art",
	"pencil sketch",
	"isometric 3d render",
	"portrait photoshoot",
	"niji 6",
];

function sqlTextArray(values: readonly string[]): string {
	return `array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", ")}]`;
}

// One batch of completed generations for one person: created over the last 60 days at millisecond
// precision (as the app stores them), four stored images each, shaped like StoredImage. Every
// other column is the tests' completed row (buildCompletedRow).
const SEED_SQL = `
with s as materialized (
	select
		gen_random_uuid() as id,
		g,
		date_trunc('milliseconds', now() - random() * interval '60 days') as created_at
	from generate_series($2::int, $3::int) as g
)
${insertCompletedRowsSql("s", {
	id: "s.id",
	user_id: "$1",
	prompt: `(${sqlTextArray(SUBJECTS)})[1 + (s.g * 7) % ${SUBJECTS.length}] || ', ' ||
		(${sqlTextArray(LIGHTS)})[1 + (s.g * 5) % ${LIGHTS.length}] || ', ' ||
		(${sqlTextArray(STYLES)})[1 + (s.g * 3) % ${STYLES.length}]`,
	aspect_ratio:
		"(array['--ar 1:1', '--ar 3:2', '--ar 16:9', '--ar 21:9', '--ar 2:3', '--ar 9:16'])[1 + s.g % 6]",
	api_id: "'local_' || gen_random_uuid()",
	polling_url: "'/api/generations/' || s.id || '/status'",
	images: `(
		select jsonb_agg(
			jsonb_build_object(
				'key', 'generations/' || s.id || '/' || i || '.png',
				'contentType', 'image/png',
				'width', 1024,
				'height', 1024,
				'thumbnailKey', 'generations/' || s.id || '/' || i || '-thumb.webp',
				'thumbnailWidth', 384,
				'thumbnailHeight', 384
			)
			order by i
		)
		from generate_series(0, 3) as i
	)`,
	is_favorite: "s.g % 20 = 0",
	created_at: "s.created_at",
	started_at: "s.created_at + interval '1 second'",
	completed_at: "s.created_at + interval '12.345 seconds'",
	updated_at: "s.created_at + interval '12.345 seconds'",
})}
`;

/** Seeds `count` completed generations for one person, in batches of 1,000. */
export async function seedHistory(
	database: Database,
	userId: string,
	count: number,
): Promise<void> {
	for (let first = 1; first <= count; first += BATCH) {
		const last = Math.min(count, first + BATCH - 1);
		await database.pool.query(SEED_SQL, [userId, first, last]);
	}
}
