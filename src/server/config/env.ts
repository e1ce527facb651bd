import { z } from "zod";
import { DEFAULT_POOL_MAX } from "../db/database";
import { COMFYUI_DEFAULT_INPUTS, COMFYUI_DEFAULT_SIZES } from "../providers/comfyui/comfyui-config";
import {
	FAL_DEFAULT_IMAGES_PER_REQUEST,
	FAL_DEFAULT_MODEL,
	FAL_DEFAULT_QUEUE_URL,
	FAL_DEFAULT_RATIO_INPUT,
	FAL_DEFAULT_SEED_INPUT,
	FAL_MODEL_PATTERN,
	FAL_RATIO_INPUTS,
} from "../providers/fal/fal-config";
import {
	OPENAI_DEFAULT_BASE_URL,
	OPENAI_DEFAULT_MODEL,
	OPENAI_DEFAULT_QUALITY,
	OPENAI_DEFAULT_SIZES,
	OPENAI_QUALITIES,
	OPENAI_SIZE_MODES,
} from "../providers/openai/openai-config";
import {
	REPLICATE_DEFAULT_BASE_URL,
	REPLICATE_DEFAULT_IMAGES_PER_PREDICTION,
	REPLICATE_DEFAULT_MODEL,
	REPLICATE_DEFAULT_SEED_INPUT,
	REPLICATE_MODEL_PATTERN,
} from "../providers/replicate/replicate-config";
import {
	MODEL_INPUT_NAME_MESSAGE,
	MODEL_INPUT_NAME_PATTERN,
	NO_SEED_INPUT,
} from "../providers/shared/input-names";
import { PIXEL_SIZE_SETS } from "../providers/shared/pixel-sizes";

const GOOGLE_DISCOVERY_URL = "https://accounts.google.com/.well-known/openid-configuration";

const optionalString = z
	.string()
	.trim()
	.transform((value) => (value === "" ? undefined : value))
	.optional();

const booleanFlag = z
	.enum(["true", "false", "1", "0", ""])
	.optional()
	.transform((value) => value === "true" || value === "1");

const positiveInt = (fallback: number) =>
	z.coerce.number().int().positive().optional().default(fallback);

const imagesPerRequest = (fallback: number) =>
	z.coerce.number().int().min(1).max(4).optional().default(fallback);

const httpUrl = (fallback: string) =>
	z
		.url({ protocol: /^https?$/, error: "must be an http(s) URL" })
		.optional()
		.default(fallback);

// `<node id>.<input name>` of a ComfyUI workflow, such as `6.text`.
const comfyInput = (fallback: string) =>
	z
		.string()
		.trim()
		.regex(/^[^.\s]+\.[^.\s]+$/, "must be <node id>.<input name>, such as 6.text")
		.optional()
		.default(fallback);

// `<node id>.<input name>` or `none`, with no default (what unset means is the adapter's choice).
const optionalComfyInput = optionalString.pipe(
	z
		.string()
		.regex(/^([^.\s]+\.[^.\s]+|none)$/, "must be <node id>.<input name>, such as 7.text, or none")
		.optional(),
);

// The name of one of a hosted model's inputs, such as `negative_prompt`.
const modelInput = optionalString.pipe(
	z.string().regex(MODEL_INPUT_NAME_PATTERN, MODEL_INPUT_NAME_MESSAGE).optional(),
);
const seedInputName = (fallback: string) =>
	z
		.string()
		.trim()
		.refine((value) => value === NO_SEED_INPUT || MODEL_INPUT_NAME_PATTERN.test(value), {
			message: `${MODEL_INPUT_NAME_MESSAGE}, or ${NO_SEED_INPUT}`,
		})
		.optional()
		.default(fallback);

/** Extra model input as a JSON object, such as `{"output_format": "png"}`. */
const jsonObject = optionalString.pipe(
	z
		.string()
		.transform((text, context) => {
			try {
				const value: unknown = JSON.parse(text);
				const parsed = z.record(z.string(), z.unknown()).safeParse(value);
				if (parsed.success) return parsed.data;
			} catch {
				// Reported below, like any value that is not an object.
			}
			context.addIssue({
				code: "custom",
				message: 'must be a JSON object, such as {"output_format":"png"}',
			});
			return z.NEVER;
		})
		.optional(),
);

// The variable each provider other than the built-in engine cannot start without.
const PROVIDER_REQUIREMENTS = [
	["http", "IMAGE_API_URL"],
	["comfyui", "COMFYUI_URL"],
	["replicate", "REPLICATE_API_TOKEN"],
	["openai", "OPENAI_API_KEY"],
	["fal", "FAL_KEY"],
] as const;

/**
 * Every environment variable the server reads. Only `main.ts` calls `parseEnv`; everything else is
 * handed the parsed result.
 */
export const EnvSchema = z
	.object({
		NODE_ENV: z.enum(["development", "production", "test"]).optional().default("production"),
		PORT: z.coerce.number().int().min(0).max(65_535).optional().default(3000),
		HOST: z.string().trim().min(1).optional().default("0.0.0.0"),
		BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
		DATA_DIR: z.string().trim().min(1).optional().default("./data"),
		DATABASE_URL: optionalString.pipe(
			z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional(),
		),
		DATABASE_POOL_MAX: z.coerce
			.number()
			.int()
			.min(2, "must be at least 2")
			.max(1000)
			.optional()
			.default(DEFAULT_POOL_MAX),
		BETTER_AUTH_SECRET: optionalString.pipe(
			z.string().min(32, "must be at least 32 characters").optional(),
		),
		ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
		TRUSTED_ORIGINS: optionalString,
		GOOGLE_CLIENT_ID: optionalString,
		GOOGLE_CLIENT_SECRET: optionalString,
		GOOGLE_DISCOVERY_URL: z.url().optional().default(GOOGLE_DISCOVERY_URL),
		AUTH_RATE_LIMIT_ENABLED: z
			.enum(["true", "false", "1", "0"])
			.optional()
			.transform((value) => value === undefined || value === "true" || value === "1"),
		TRUST_PROXY: booleanFlag,
		REQUIRE_EMAIL_VERIFICATION: booleanFlag,
		SMTP_URL: optionalString.pipe(
			z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
		),
		MAIL_FROM: optionalString.pipe(
			z
				.string()
				.regex(
					/^([^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
					"must be an address or Name <address>, e.g. Atelier <atelier@example.com>",
				)
				.optional(),
		),
		/** A JSON file of the models people may choose; without it, the one IMAGE_PROVIDER names. */
		MODELS_FILE: optionalString,
		IMAGE_PROVIDER: z
			.enum(["local", "http", "comfyui", "replicate", "openai", "fal"])
			.optional()
			.default("local"),
		LOCAL_ENGINE_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional().default(3000),
		IMAGE_API_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
		IMAGE_API_KEY: optionalString,
		COMFYUI_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
		COMFYUI_AUTH_HEADER: optionalString.pipe(
			z
				.string()
				.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:\s*\S/, "must look like Header-Name: value")
				.optional(),
		),
		COMFYUI_WORKFLOW_FILE: optionalString,
		COMFYUI_PROMPT_INPUT: comfyInput(COMFYUI_DEFAULT_INPUTS.prompt),
		COMFYUI_WIDTH_INPUT: comfyInput(COMFYUI_DEFAULT_INPUTS.width),
		COMFYUI_HEIGHT_INPUT: comfyInput(COMFYUI_DEFAULT_INPUTS.height),
		COMFYUI_BATCH_INPUT: z
			.string()
			.trim()
			.regex(
				/^([^.\s]+\.[^.\s]+|none)$/,
				"must be <node id>.<input name>, such as 5.batch_size, or none",
			)
			.optional()
			.default(COMFYUI_DEFAULT_INPUTS.batch),
		COMFYUI_SEED_INPUT: comfyInput(COMFYUI_DEFAULT_INPUTS.seed),
		/** Unset: the shipped workflow's negative text (7.text), none with your own workflow. */
		COMFYUI_NEGATIVE_PROMPT_INPUT: optionalComfyInput,
		COMFYUI_CHECKPOINT: optionalString,
		COMFYUI_SIZES: z.enum(PIXEL_SIZE_SETS).optional().default(COMFYUI_DEFAULT_SIZES),
		REPLICATE_API_TOKEN: optionalString,
		REPLICATE_MODEL: z
			.string()
			.trim()
			.regex(
				REPLICATE_MODEL_PATTERN,
				"must be owner/name, owner/name:<version> or a 64-hex version",
			)
			.optional()
			.default(REPLICATE_DEFAULT_MODEL),
		REPLICATE_BASE_URL: httpUrl(REPLICATE_DEFAULT_BASE_URL),
		REPLICATE_IMAGES_PER_PREDICTION: imagesPerRequest(REPLICATE_DEFAULT_IMAGES_PER_PREDICTION),
		REPLICATE_INPUT_JSON: jsonObject,
		REPLICATE_SEED_INPUT: seedInputName(REPLICATE_DEFAULT_SEED_INPUT),
		REPLICATE_NEGATIVE_PROMPT_INPUT: modelInput,
		OPENAI_API_KEY: optionalString,
		OPENAI_BASE_URL: httpUrl(OPENAI_DEFAULT_BASE_URL),
		OPENAI_IMAGE_MODEL: z.string().trim().min(1).optional().default(OPENAI_DEFAULT_MODEL),
		OPENAI_IMAGE_QUALITY: z.enum(OPENAI_QUALITIES).optional().default(OPENAI_DEFAULT_QUALITY),
		OPENAI_IMAGE_SIZES: z.enum(OPENAI_SIZE_MODES).optional().default(OPENAI_DEFAULT_SIZES),
		FAL_KEY: optionalString,
		FAL_MODEL: z
			.string()
			.trim()
			.regex(FAL_MODEL_PATTERN, "must look like owner/app[/path], such as fal-ai/flux/schnell")
			.optional()
			.default(FAL_DEFAULT_MODEL),
		FAL_QUEUE_URL: httpUrl(FAL_DEFAULT_QUEUE_URL),
		FAL_RATIO_INPUT: z.enum(FAL_RATIO_INPUTS).optional().default(FAL_DEFAULT_RATIO_INPUT),
		FAL_IMAGES_PER_REQUEST: imagesPerRequest(FAL_DEFAULT_IMAGES_PER_REQUEST),
		FAL_INPUT_JSON: jsonObject,
		FAL_SEED_INPUT: seedInputName(FAL_DEFAULT_SEED_INPUT),
		FAL_NEGATIVE_PROMPT_INPUT: modelInput,
		MAX_ACTIVE_GENERATIONS_PER_USER: positiveInt(3),
		API_TOKEN_RATE_LIMIT_PER_MINUTE: positiveInt(60),
		DAILY_GENERATIONS_PER_USER: z.coerce.number().int().min(0).optional().default(0),
		GENERATION_CONCURRENCY: positiveInt(4),
		GENERATION_TIMEOUT_MS: positiveInt(300_000),
		IMAGE_DOWNLOAD_MAX_BYTES: positiveInt(25 * 1024 * 1024),
		STORAGE: z.enum(["local", "s3"]).optional().default("local"),
		S3_BUCKET: optionalString,
		S3_REGION: z.string().trim().min(1).optional().default("us-east-1"),
		S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
		S3_ACCESS_KEY_ID: optionalString,
		S3_SECRET_ACCESS_KEY: optionalString,
		S3_FORCE_PATH_STYLE: booleanFlag,
		S3_PREFIX: z
			.string()
			.trim()
			.regex(
				/^([a-z0-9][a-z0-9._-]*\/)*$/i,
				"must be empty or folder names ending in /, e.g. atelier/",
			)
			.optional()
			.default(""),
		LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).optional().default("info"),
		SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
		/** After SIGTERM, how long /api/ready answers 503 before the port closes (a load balancer's notice). */
		READY_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).optional().default(2_000),
		/**
		 * Lets webhooks reach loopback, private, link-local and metadata addresses (and plain http
		 * to them): for tests and receivers on the operator's own network. Off, they are refused.
		 */
		WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag,
		/** The waits between a webhook's attempts, in seconds; unset, the Standard Webhooks schedule. */
		WEBHOOK_RETRY_DELAYS_SECONDS: optionalString.pipe(
			z
				.string()
				.regex(
					/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?){0,19}\s*$/,
					"must be up to 20 waits in seconds separated by commas, such as 5,300,1800",
				)
				.transform((text) => text.split(",").map((part) => Math.round(Number(part) * 1000)))
				.optional(),
		),
		/** Turns on GET /metrics for a scraper sending it as a bearer token. */
		METRICS_TOKEN: optionalString.pipe(
			z.string().min(16, "must be at least 16 characters").optional(),
		),
	})
	.superRefine((env, context) => {
		if (env.DATABASE_URL && !env.BETTER_AUTH_SECRET) {
			context.addIssue({
				code: "custom",
				path: ["BETTER_AUTH_SECRET"],
				message: "is required when DATABASE_URL is set (production)",
			});
		}
		for (const [provider, variable] of PROVIDER_REQUIREMENTS) {
			if (env.IMAGE_PROVIDER === provider && !env[variable]) {
				context.addIssue({
					code: "custom",
					path: [variable],
					message: `is required when IMAGE_PROVIDER is ${provider}`,
				});
			}
		}
		if (env.STORAGE === "s3" && !env.S3_BUCKET) {
			context.addIssue({
				code: "custom",
				path: ["S3_BUCKET"],
				message: "is required when STORAGE is s3",
			});
		}
		if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
			context.addIssue({
				code: "custom",
				path: [env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
				message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
			});
		}
		if (env.SMTP_URL && !env.MAIL_FROM) {
			context.addIssue({
				code: "custom",
				path: ["MAIL_FROM"],
				message: "is required when SMTP_URL is set (the sender of reset and verification e-mails)",
			});
		}
		if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
			context.addIssue({
				code: "custom",
				path: [env.GOOGLE_CLIENT_ID ? "GOOGLE_CLIENT_SECRET" : "GOOGLE_CLIENT_ID"],
				message: "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together",
			});
		}
	});

export type Env = z.infer<typeof EnvSchema>;

type EnvResult = { ok: true; env: Env } | { ok: false; problems: string[] };

/** Parses the environment; on failure names every bad variable with its problem. */
export function parseEnv(source: Record<string, string | undefined>): EnvResult {
	// An empty value (as in a copied .env.example) means "not set".
	const present = Object.fromEntries(
		Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""),
	);
	const result = EnvSchema.safeParse(present);
	if (result.success) return { ok: true, env: result.data };
	const problems = result.error.issues.map((issue) => {
		const name = issue.path.join(".") || "environment";
		return `${name}: ${issue.message}`;
	});
	return { ok: false, problems };
}

/** The public origin the server is reached at: BASE_URL, or localhost on PORT. */
export function resolveBaseUrl(env: Pick<Env, "BASE_URL" | "PORT">): string {
	return (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
}
