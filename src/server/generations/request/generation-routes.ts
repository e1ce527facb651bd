import { Hono } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { CreateGenerationRequestSchema } from "../../../shared/generations/create-generation-request";
import {
	ActiveGenerationsQuerySchema,
	DeleteQuerySchema,
	GenerationFamilyQuerySchema,
	GenerationIdsRequestSchema,
	ListGenerationsQuerySchema,
	PollGenerationQuerySchema,
	SetFavoriteRequestSchema,
} from "../../../shared/generations/generations";
import type { ModelsResponse } from "../../../shared/generations/models";
import { serverIdempotencyKeyShape } from "../../../shared/i18n/messages";
import { AppError } from "../../errors/app-error";
import type { Gate, ViewerEnv } from "../../http/app-env";
import { parseId, parseOrThrow, readJson } from "../../http/request-input";
import { startOfDayIn, TimeZoneSchema } from "../../http/time-zone";
import { toPublicModel } from "../../models/model-catalogue";
import { MODEL_OPERATIONS } from "../../models/model-operations";
import { DEFAULT_GENERATION_STREAM_TIMES, type GenerationDeps } from "../generation-deps";
import { findLatestModelId } from "../generation-repository";
import { findQueuePosition } from "../run/queue-order";
import { createBatch } from "./create-batch";
import { createGeneration } from "./create-generation";
import { discardGenerations } from "./delete-generations";
import { GENERATION_OPERATIONS as OPERATIONS } from "./generation-operations";
import { presentGeneration } from "./generation-presenter";
import { getGenerationFamily, getPresentableGeneration } from "./get-generation";
import { listActiveGenerations } from "./list-active-generations";
import { listHistory } from "./list-history";
import { pollGeneration } from "./poll-generation";
import { setFavorite } from "./set-favorite";
import { type GenerationStreamMessage, streamGenerations } from "./stream-generations";

/** How long a browser waits before opening the next stream, once one ended or broke. */
const STREAM_RETRY_MS = 2_000;

/** One message of GET /api/generations/events as Server-Sent Events. */
function writeStreamMessage(stream: SSEStreamingApi, message: GenerationStreamMessage) {
	switch (message.kind) {
		case "heartbeat":
			return stream.write(": heartbeat\n\n").then(() => undefined);
		case "active":
			return stream.writeSSE({ event: "active", data: JSON.stringify({ ids: message.ids }) });
		case "generation":
			return stream.writeSSE({
				event: "generation",
				id: message.id,
				data: JSON.stringify(message.answer),
			});
	}
}

/**
 * The `Idempotency-Key` header of draft-ietf-httpapi-idempotency-key-header: a structured-field
 * string (`"abc"`), or the same text unquoted, as most clients send it; 1 to 255 characters.
 */
function readIdempotencyKey(value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	const key = /^"(.*)"$/.exec(trimmed)?.[1] ?? trimmed;
	if (key.length === 0 || key.length > 255 || !/^[\x20-\x7e]+$/.test(key)) {
		throw new AppError("VALIDATION_ERROR", serverIdempotencyKeyShape);
	}
	return key;
}

// Built once: zod compiles an object schema's parser on its first use.
const ListHistoryQuerySchema = ListGenerationsQuerySchema.extend({
	timeZone: TimeZoneSchema.optional(),
});

/**
 * `/api/generations` and `/api/models`. Each route is let in by its entry of GENERATION_OPERATIONS
 * (`/api/models` by MODEL_OPERATIONS: a session, or a token with the entry's scopes); ownership is
 * checked per row. A generation's
 * files are served by files/file-routes.ts.
 */
export function createGenerationRoutes(options: {
	/** The one gate (auth/request-viewer.ts), for each route's access. */
	gate: Gate;
	deps: GenerationDeps;
}) {
	const { gate, deps } = options;
	const { allow } = gate;
	const app = new Hono<ViewerEnv>();

	// Anyone may see what is offered (the generator shows it signed out); a signed-in person also
	// learns the model they chose last.
	app.get("/models", allow(MODEL_OPERATIONS.listModels.access), async (context) => {
		const viewer = context.get("optionalViewer");
		const latest = viewer ? await findLatestModelId(deps.database.db, viewer.id) : undefined;
		return context.json({
			models: deps.models.models.map(toPublicModel),
			defaultModelId: deps.models.defaultModelId,
			preferredModelId: latest !== undefined && deps.models.find(latest) ? latest : null,
		} satisfies ModelsResponse);
	});

	app.post("/generations", allow(OPERATIONS.createGeneration.access), async (context) => {
		const idempotencyKey = readIdempotencyKey(context.req.header("idempotency-key"));
		const body = await readJson(context.req);
		const input = parseOrThrow(CreateGenerationRequestSchema, body);
		if (input.variations !== undefined || input.models !== undefined) {
			const { isReplay, ...batch } = await createBatch(
				deps,
				context.get("viewer"),
				input,
				idempotencyKey === undefined ? {} : { idempotencyKey },
			);
			if (isReplay) context.header("Idempotent-Replayed", "true");
			return context.json({ success: true, ...batch }, 201);
		}
		const { isReplay, ...created } = await createGeneration(
			deps,
			context.get("viewer"),
			input,
			idempotencyKey === undefined ? {} : { idempotencyKey },
		);
		if (isReplay) context.header("Idempotent-Replayed", "true");
		return context.json({ success: true, ...created }, 201);
	});

	app.get("/generations", allow(OPERATIONS.listGenerations.access), async (context) => {
		const query = parseOrThrow(ListHistoryQuerySchema, context.req.query());
		const page = await listHistory(deps, context.get("viewer"), {
			cursor: query.cursor,
			limit: query.limit,
			todayStart: startOfDayIn(query.timeZone ?? "UTC"),
			search: query.q,
			aspectRatio: query.ratio,
			modelId: query.model,
			isFavoritesOnly: query.favorites,
			styleId: query.style,
			batchId: query.batch,
			ownerEmail: query.owner,
			boardId: query.board,
			from: query.from,
			to: query.to,
			timeZone: query.timeZone,
		});
		return context.json(page);
	});

	app.post(
		"/generations/bulk-delete",
		allow(OPERATIONS.deleteGenerations.access),
		async (context) => {
			const body = await readJson(context.req);
			const { ids } = parseOrThrow(GenerationIdsRequestSchema, body);
			const { permanent } = parseOrThrow(DeleteQuerySchema, context.req.query());
			const discarded = await discardGenerations(deps, context.get("viewer"), ids, { permanent });
			return context.json({ success: true, ...discarded });
		},
	);

	// Before /generations/:id, which would take "active" for an id.
	app.get(
		"/generations/active",
		allow(OPERATIONS.listActiveGenerations.access),
		async (context) => {
			const query = parseOrThrow(ActiveGenerationsQuerySchema, context.req.query());
			const active = await listActiveGenerations(deps, context.get("viewer"), {
				after: query.after,
				waitMs: query.wait,
				signal: context.req.raw.signal,
			});
			context.header("cache-control", "no-store");
			return context.json(active);
		},
	);

	// Before /generations/:id, which would take "events" for an id.
	app.get(
		"/generations/events",
		allow(OPERATIONS.streamGenerationEvents.access),
		async (context) => {
			const viewer = context.get("viewer");
			const isStillAllowed = context.get("isStillAllowed");
			const times = { ...DEFAULT_GENERATION_STREAM_TIMES, ...deps.limits.streamTimes };
			const { signal } = context.req.raw;
			// A proxy that buffers answers (nginx) would hold the events back.
			context.header("x-accel-buffering", "no");
			return streamSSE(context, async (stream) => {
				const closed = new AbortController();
				stream.onAbort(() => closed.abort());
				signal.addEventListener("abort", () => closed.abort(), { once: true });
				try {
					await stream.write(`retry: ${STREAM_RETRY_MS}\n\n`);
					await streamGenerations(deps, viewer, {
						send: (message) => writeStreamMessage(stream, message),
						isStillAllowed,
						signal: closed.signal,
						times,
					});
				} catch (error) {
					// The page opens the next stream; what broke this one is the log's.
					deps.logger.error("generation event stream failed", { error });
				}
			});
		},
	);

	app.get("/generations/:id", allow(OPERATIONS.getGeneration.access), async (context) => {
		const id = parseId(context.req.param("id"));
		const row = await getPresentableGeneration(deps, context.get("viewer"), id);
		return context.json(presentGeneration(row, await findQueuePosition(deps.database.db, row)));
	});

	app.get(
		"/generations/:id/family",
		allow(OPERATIONS.getGenerationFamily.access),
		async (context) => {
			const id = parseId(context.req.param("id"));
			const query = parseOrThrow(GenerationFamilyQuerySchema, context.req.query());
			return context.json(await getGenerationFamily(deps, context.get("viewer"), id, query));
		},
	);

	app.get("/generations/:id/status", allow(OPERATIONS.pollGeneration.access), async (context) => {
		const id = parseId(context.req.param("id"));
		const { wait: waitMs, after } = parseOrThrow(PollGenerationQuerySchema, context.req.query());
		const poll = await pollGeneration(deps, context.get("viewer"), id, {
			waitMs,
			after,
			signal: context.req.raw.signal,
		});
		context.header("cache-control", "no-store");
		return context.json(poll);
	});

	app.delete("/generations/:id", allow(OPERATIONS.deleteGeneration.access), async (context) => {
		const id = parseId(context.req.param("id"));
		const { permanent } = parseOrThrow(DeleteQuerySchema, context.req.query());
		const discarded = await discardGenerations(deps, context.get("viewer"), [id], { permanent });
		return context.json({ success: true, permanent: discarded.permanent });
	});

	app.put("/generations/:id/favorite", allow(OPERATIONS.setFavorite.access), async (context) => {
		const id = parseId(context.req.param("id"));
		const input = parseOrThrow(SetFavoriteRequestSchema, await readJson(context.req));
		const favorite = await setFavorite(deps, context.get("viewer"), id, input.favorite);
		return context.json({ success: true, favorite });
	});

	return app;
}
