import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { MAX_UPLOAD_BYTES } from "../../shared/image-input/image-input";
import { UploadFormSchema } from "../../shared/image-input/upload-form";
import { UPLOAD_MESSAGES } from "../../shared/image-input/upload-rules";
import { AppError } from "../errors/app-error";
import type { Gate, ViewerEnv } from "../http/app-env";
import { errorResponse } from "../http/errors";
import { assertMayUpload, storeUpload, type UploadDeps } from "./store-upload";
import { UPLOAD_OPERATIONS as OPERATIONS } from "./upload-operations";
import { findOwnUpload } from "./upload-repository";

/** Room for the multipart form's boundaries and part headers around the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Whether a request is an upload, which the API's small body limit (app.ts) leaves to the route:
 * the route reads the body only once it knows who asks.
 */
export function isUploadRequest(request: { method: string; path: string }): boolean {
	return request.method === "POST" && request.path === "/api/uploads";
}

/**
 * `POST /api/uploads` and `GET /api/uploads/:id/image`: a person's reference images, private to
 * them. Each route is let in by its entry of UPLOAD_OPERATIONS.
 */
export function createUploadRoutes(options: {
	/** The one gate (auth/request-viewer.ts), for each route's access. */
	gate: Gate;
	deps: UploadDeps;
}) {
	const { gate, deps } = options;
	const { allow } = gate;
	const app = new Hono<ViewerEnv>();

	// Counted as it arrives (a body without Content-Length too), the read stopped at the limit.
	const limitBody = bodyLimit({
		maxSize: MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES,
		onError: (context) => errorResponse(context, "PAYLOAD_TOO_LARGE", UPLOAD_MESSAGES.tooLarge),
	});
	// Counted and, over a rate limit or at the limit of unused uploads, answered before the file
	// is read: whether it would have decoded makes no difference to the count.
	const refuseAtLimit: MiddlewareHandler<ViewerEnv> = async (context, next) => {
		await assertMayUpload(deps.db, context.get("viewer").id);
		await next();
	};

	app.post(
		"/uploads",
		allow(OPERATIONS.uploadImage.access),
		refuseAtLimit,
		limitBody,
		async (context) => {
			const form = await context.req.parseBody({ all: true }).catch(() => {
				throw new AppError("VALIDATION_ERROR", UPLOAD_MESSAGES.missing);
			});
			const parsed = UploadFormSchema.safeParse(form);
			if (!parsed.success) throw new AppError("VALIDATION_ERROR", UPLOAD_MESSAGES.missing);
			const { image } = parsed.data;
			if (image.size > MAX_UPLOAD_BYTES) {
				throw new AppError("PAYLOAD_TOO_LARGE", UPLOAD_MESSAGES.tooLarge);
			}
			const file = new Uint8Array(await image.arrayBuffer());
			return context.json(await storeUpload(deps, context.get("viewer").id, file), 201);
		},
	);

	app.get("/uploads/:id/image", allow(OPERATIONS.readUploadImage.access), async (context) => {
		const upload = await findOwnUpload(deps.db, context.get("viewer").id, context.req.param("id"));
		const object = upload ? await deps.storage.get(upload.storage_key) : undefined;
		if (!upload || !object) throw new AppError("NOT_FOUND");
		return new Response(new Uint8Array(object.data), {
			headers: {
				"content-type": upload.content_type,
				"content-length": String(object.data.length),
				// Only its uploader may read it. Immutable: an upload's image never changes.
				"cache-control": "private, max-age=31536000, immutable",
			},
		});
	});

	return app;
}
