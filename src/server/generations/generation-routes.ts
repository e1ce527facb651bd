import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { POLLING_INTERVAL_MS } from "../../shared/constants";
import {
	CreateGenerationRequestSchema,
	GenerationIdSchema,
	ListGenerationsQuerySchema,
} from "../../shared/generations";
import type { AppEnv } from "../app";
import type { Auth } from "../auth/auth";
import { AppError } from "../http/errors";
import {
	createGeneration,
	deleteGeneration,
	type GenerationDeps,
	getGeneration,
	listGenerations,
	pollGeneration,
	presentGeneration,
	type Viewer,
} from "./generation-service";
import { generationFolder, runFolder } from "./store-images";

async function readViewer(auth: Auth, headers: Headers): Promise<Viewer | undefined> {
	const session = await auth.api.getSession({ headers });
	if (!session) return undefined;
	return { id: session.user.id, email: session.user.email, isAdmin: session.user.isAdmin };
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown): T {
	const result = schema.safeParse(value);
	if (!result.success) {
		const message = result.error.issues[0]?.message;
		throw new AppError("VALIDATION_ERROR", message);
	}
	return result.data;
}

function parseId(value: string): string {
	// Not an id of ours: the same answer as someone else's id, without asking the database.
	if (!GenerationIdSchema.safeParse(value).success) throw new AppError("NOT_FOUND");
	return value;
}

const TimeZoneSchema = z
	.string()
	.max(64)
	.refine((zone) => {
		try {
			new Intl.DateTimeFormat("en-US", { timeZone: zone });
			return true;
		} catch {
			return false;
		}
	}, "Unknown time zone.");

/** Midnight today in `timeZone`, as an instant. */
export function startOfDayIn(timeZone: string, now: Date = new Date()): Date {
	const parts = new Intl.DateTimeFormat("en-US", {
		timeZone,
		hourCycle: "h23",
		hour: "numeric",
		minute: "numeric",
		second: "numeric",
	}).formatToParts(now);
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
	const sinceMidnight = (part("hour") * 3600 + part("minute") * 60 + part("second")) * 1000;
	return new Date(now.getTime() - sinceMidnight - now.getMilliseconds());
}

/** `/api/generations` and `/api/images`: every route needs a session; ownership is checked per row. */
export function createGenerationRoutes(options: { auth: Auth; deps: GenerationDeps }) {
	const { auth, deps } = options;
	type RoutesEnv = { Variables: AppEnv["Variables"] & { viewer: Viewer } };
	const app = new Hono<RoutesEnv>();

	const requireViewer = createMiddleware<RoutesEnv>(async (context, next) => {
		const viewer = await readViewer(auth, context.req.raw.headers);
		if (!viewer) {
			const isCreate = context.req.method === "POST" && context.req.path === "/api/generations";
			throw new AppError(isCreate ? "SIGN_IN_REQUIRED" : "AUTH_ERROR");
		}
		context.set("viewer", viewer);
		await next();
	});
	// Paths spelled out: a bare `use` here would also cover the other /api routes this app is mounted beside.
	// "/generations/*" also matches "/generations" itself; one entry, so the session is read once.
	app.use("/generations/*", requireViewer);
	app.use("/images/*", requireViewer);

	app.post("/generations", async (context) => {
		const body = await context.req.json().catch(() => {
			throw new AppError("VALIDATION_ERROR");
		});
		const input = parseOrThrow(CreateGenerationRequestSchema, body);
		const created = await createGeneration(deps, context.get("viewer"), input);
		return context.json({ success: true, id: created.id, pollingUrl: created.pollingUrl }, 201);
	});

	app.get("/generations", async (context) => {
		const query = parseOrThrow(
			ListGenerationsQuerySchema.extend({ timeZone: TimeZoneSchema.optional() }),
			context.req.query(),
		);
		const page = await listGenerations(deps, context.get("viewer"), {
			cursor: query.cursor,
			limit: query.limit,
			todayStart: startOfDayIn(query.timeZone ?? "UTC"),
		});
		return context.json(page);
	});

	app.get("/generations/:id", async (context) => {
		const row = await getGeneration(deps, context.get("viewer"), parseId(context.req.param("id")));
		return context.json(presentGeneration(row));
	});

	app.get("/generations/:id/status", async (context) => {
		const id = parseId(context.req.param("id"));
		const wait = context.req.query("wait");
		const waitMs =
			wait === undefined ? POLLING_INTERVAL_MS : Math.min(Math.max(Number(wait) || 0, 0), 25_000);
		const poll = await pollGeneration(
			deps,
			context.get("viewer"),
			id,
			waitMs,
			context.req.raw.signal,
		);
		context.header("cache-control", "no-store");
		return context.json(poll);
	});

	app.delete("/generations/:id", async (context) => {
		await deleteGeneration(deps, context.get("viewer"), parseId(context.req.param("id")));
		return context.json({ success: true });
	});

	const serveImage = async (viewer: Viewer, id: string, folder: string, file: string) => {
		if (!/^\d+(-thumb)?\.(png|jpg|webp|gif|avif)$/.test(file)) throw new AppError("NOT_FOUND");
		await getGeneration(deps, viewer, id);
		const object = await deps.storage.get(`${folder}${file}`);
		if (!object) throw new AppError("NOT_FOUND");
		return new Response(new Uint8Array(object.data), {
			headers: {
				"content-type": object.contentType,
				// Private: only the owner and the admin may read it. Immutable: a key never changes.
				"cache-control": "private, max-age=31536000, immutable",
				"content-length": String(object.data.length),
			},
		});
	};
	// Images live in the folder of the run that stored them.
	app.get("/images/generations/:id/:run/:file", async (context) => {
		const id = parseId(context.req.param("id"));
		const run = parseId(context.req.param("run"));
		return serveImage(context.get("viewer"), id, runFolder(id, run), context.req.param("file"));
	});
	// Generations stored before runs had folders keep the generation's own folder.
	app.get("/images/generations/:id/:file", async (context) => {
		const id = parseId(context.req.param("id"));
		return serveImage(context.get("viewer"), id, generationFolder(id), context.req.param("file"));
	});

	return app;
}
