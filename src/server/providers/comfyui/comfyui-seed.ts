import { randomInt } from "node:crypto";
import { z } from "zod";

/** The whole numbers a workflow's seed input accepts, as ComfyUI's `/object_info` lists them. */
export type SeedLimits = { min: number; max: number };

// node:crypto's randomInt draws from ranges narrower than 2^48; plenty for a seed.
const MAX_DRAWN_SEED = 2 ** 48 - 2;

/**
 * For a ComfyUI that does not list the seed input (an old server, a proxy that blocks
 * `/object_info`, a custom node): any seed that stays an exact JSON number, drawn below 2^48 as
 * the samplers shipped with ComfyUI accept.
 */
export const UNKNOWN_SEED_LIMITS: SeedLimits = { min: 0, max: Number.MAX_SAFE_INTEGER };

// `GET /object_info/{class}`: {<class>: {input: {required: {<name>: [type, options]}, optional}}}.
const InputSpecSchema = z
	.tuple([z.unknown()], z.unknown())
	.transform(([type, options]) => ({ type, options }));
const InputOptionsSchema = z.object({
	min: z.number().optional().catch(undefined),
	max: z.number().optional().catch(undefined),
});
const ObjectInfoSchema = z.record(
	z.string(),
	z
		.object({
			input: z
				.object({
					required: z.record(z.string(), z.unknown()).optional().catch(undefined),
					optional: z.record(z.string(), z.unknown()).optional().catch(undefined),
				})
				.loose(),
		})
		.loose(),
);

/**
 * The limits `/object_info` gives one node class's integer input; undefined when the answer does
 * not describe it as an INT (so the caller falls back to UNKNOWN_SEED_LIMITS).
 */
export function readSeedLimits(
	objectInfo: unknown,
	classType: string,
	inputName: string,
): SeedLimits | undefined {
	const parsed = ObjectInfoSchema.safeParse(objectInfo);
	const inputs = parsed.success ? parsed.data[classType]?.input : undefined;
	const spec = InputSpecSchema.safeParse(
		inputs?.required?.[inputName] ?? inputs?.optional?.[inputName],
	);
	if (!spec.success || spec.data.type !== "INT") return undefined;
	const options = InputOptionsSchema.safeParse(spec.data.options);
	const { min, max } = options.success ? options.data : {};
	// ComfyUI's 64-bit maximum arrives as a float past 2^53: a seed stays an exact JSON number.
	const lowest = Math.max(Math.ceil(min ?? 0), -Number.MAX_SAFE_INTEGER);
	const highest = Math.min(Math.floor(max ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
	return highest >= lowest ? { min: lowest, max: highest } : undefined;
}

/** A fresh random seed the seed input accepts (never negative, below 2^48). */
export function drawSeed(limits: SeedLimits): number {
	const lowest = Math.max(limits.min, 0);
	const highest = Math.min(limits.max, MAX_DRAWN_SEED);
	if (highest < lowest) return limits.min;
	return randomInt(lowest, highest + 1);
}

export type SeedCheck = { ok: true; seed: number } | { ok: false; field: "seed"; message: string };

/**
 * Checks a seed a person chose against the workflow's limits; the refusal names the field, to be
 * answered as a 400 validation error.
 */
export function checkSeed(seed: unknown, limits: SeedLimits): SeedCheck {
	const isAccepted =
		typeof seed === "number" && Number.isInteger(seed) && seed >= limits.min && seed <= limits.max;
	if (isAccepted) return { ok: true, seed };
	return {
		ok: false,
		field: "seed",
		message: `seed must be a whole number from ${limits.min} to ${limits.max} for this model`,
	};
}
