import { Hono } from "hono";
import { AppError } from "../../errors/app-error";
import type { Gate, ViewerEnv } from "../../http/app-env";
import type { SignedUrls } from "../../storage/signed-urls";
import type { Storage } from "../../storage/storage";
import { REGION_OPERATIONS } from "./region-operations";

/**
 * `GET /api/signed-files/<token>`: the one file a signed URL names (storage/signed-urls.ts), to
 * anyone holding it until it ends. What an image service fetches where its entry asks for URLs.
 */
export function createSignedFileRoutes(options: {
	gate: Gate;
	storage: Storage;
	signedUrls: SignedUrls;
}) {
	const { gate, storage, signedUrls } = options;
	const app = new Hono<ViewerEnv>();
	app.get(
		"/signed-files/:token",
		gate.allow(REGION_OPERATIONS.readSignedFile.access),
		async (context) => {
			const key = signedUrls.readToken(context.req.param("token"));
			// Expired, altered or never signed: one answer, so a guess learns nothing.
			const object = key === undefined ? undefined : await storage.get(key);
			if (!object) throw new AppError("NOT_FOUND");
			return new Response(new Uint8Array(object.data), {
				headers: {
					"content-type": object.contentType,
					"content-length": String(object.data.length),
					"cache-control": "private, no-store",
					"x-robots-tag": "noindex, nofollow",
				},
			});
		},
	);
	return app;
}
