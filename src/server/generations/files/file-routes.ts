import { Hono } from "hono";
import { isRegionAction } from "../../../shared/generations/region-edit";
import { BOARD_OPERATIONS } from "../../boards/board-operations";
import { AppError } from "../../errors/app-error";
import type { Gate, ViewerEnv } from "../../http/app-env";
import { parseId, parseImageIndex, readIds } from "../../http/request-input";
import { TimeZoneSchema } from "../../http/time-zone";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps } from "../generation-deps";
import { GENERATION_OPERATIONS as OPERATIONS } from "../request/generation-operations";
import { getGeneration, getGenerationForImages } from "../request/get-generation";
import { generationFolder, isStoredImageFile, runFolder } from "../run/store-images";
import {
	archiveBoard,
	archiveGeneration,
	archiveGenerations,
	attachmentDisposition,
	type Download,
	downloadGenerationImage,
} from "./generation-downloads";
import { REGION_OPERATIONS } from "./region-operations";

function sendDownload(download: Download, contentType: string): Response {
	return new Response(download.body, {
		headers: {
			"content-type": contentType,
			"content-disposition": attachmentDisposition(download.fileName),
			"cache-control": "private, no-store",
		},
	});
}

/**
 * A generation's files: an image's download, archives of one or many generations, and
 * `/api/images`, where the stored images are read. Each route is let in by its entry of
 * GENERATION_OPERATIONS; ownership is checked per row.
 */
export function createFileRoutes(options: {
	/** The one gate (auth/request-viewer.ts), for each route's access. */
	gate: Gate;
	deps: GenerationDeps;
}) {
	const { gate, deps } = options;
	const { allow } = gate;
	const app = new Hono<ViewerEnv>();

	app.post("/generations/archive", allow(OPERATIONS.archiveGenerations.access), async (context) => {
		const ids = await readIds(context.req);
		const download = await archiveGenerations(deps, context.get("viewer"), ids);
		return sendDownload(download, "application/zip");
	});

	app.get(
		"/generations/:id/images/:index/download",
		allow(OPERATIONS.downloadImage.access),
		async (context) => {
			const id = parseId(context.req.param("id"));
			const index = parseImageIndex(context.req.param("index"));
			const { object, fileName } = await downloadGenerationImage(
				deps,
				context.get("viewer"),
				id,
				index,
			);
			return new Response(new Uint8Array(object.data), {
				headers: {
					"content-type": object.contentType,
					"content-length": String(object.data.length),
					"content-disposition": attachmentDisposition(fileName),
					"cache-control": "private, no-store",
				},
			});
		},
	);

	app.get(
		"/generations/:id/archive",
		allow(OPERATIONS.archiveGeneration.access),
		async (context) => {
			const id = parseId(context.req.param("id"));
			const download = await archiveGeneration(deps, context.get("viewer"), id);
			return sendDownload(download, "application/zip");
		},
	);

	// A board's ZIP (decision 032): for whoever may see the board.
	app.get("/boards/:id/archive", allow(BOARD_OPERATIONS.archiveBoard.access), async (context) => {
		const zone = TimeZoneSchema.safeParse(context.req.query("timeZone"));
		const download = await archiveBoard(
			deps,
			context.get("viewer"),
			context.req.param("id"),
			zone.success ? zone.data : "UTC",
		);
		return sendDownload(download, "application/zip");
	});
	// A region edit's mask and its copy of its source: its owner's alone, as uploads are (the
	// administrator, who may see its images, answered 404 like anyone else).
	const serveKept = async (viewer: Viewer, id: string, which: "mask" | "source") => {
		const generation = await getGeneration(deps, viewer, id);
		if (generation.user_id !== viewer.id) throw new AppError("NOT_FOUND");
		const kept =
			which === "mask"
				? generation.region_mask
				: isRegionAction(generation.action)
					? generation.reference_image
					: null;
		const object = kept ? await deps.storage.get(kept.key) : undefined;
		if (!kept || !object) throw new AppError("NOT_FOUND");
		return new Response(new Uint8Array(object.data), {
			headers: {
				"content-type": kept.contentType,
				"cache-control": "private, max-age=31536000, immutable",
				"content-length": String(object.data.length),
			},
		});
	};
	app.get("/generations/:id/mask", allow(REGION_OPERATIONS.readMask.access), async (context) =>
		serveKept(context.get("viewer"), parseId(context.req.param("id")), "mask"),
	);
	app.get("/generations/:id/source", allow(REGION_OPERATIONS.readSource.access), async (context) =>
		serveKept(context.get("viewer"), parseId(context.req.param("id")), "source"),
	);

	const serveImage = async (viewer: Viewer, id: string, folder: string, file: string) => {
		if (!isStoredImageFile(file)) throw new AppError("NOT_FOUND");
		// The Trash page shows what is in it: its images stay readable to their owner and the admin.
		await getGenerationForImages(deps, viewer, id);
		const object = await deps.storage.get(`${folder}${file}`);
		if (!object) throw new AppError("NOT_FOUND");
		return new Response(new Uint8Array(object.data), {
			headers: {
				"content-type": object.contentType,
				// Private: only those who may see it read it (its owner, the admin, a shared board's
				// viewers), never a shared cache. Immutable: a key never changes.
				"cache-control": "private, max-age=31536000, immutable",
				"content-length": String(object.data.length),
			},
		});
	};
	// Images live in the folder of the run that stored them.
	app.get(
		"/images/generations/:id/:run/:file",
		allow(OPERATIONS.readImage.access),
		async (context) => {
			const id = parseId(context.req.param("id"));
			const run = parseId(context.req.param("run"));
			return serveImage(context.get("viewer"), id, runFolder(id, run), context.req.param("file"));
		},
	);
	// Generations stored before runs had folders keep the generation's own folder.
	app.get("/images/generations/:id/:file", allow(OPERATIONS.readImage.access), async (context) => {
		const id = parseId(context.req.param("id"));
		return serveImage(context.get("viewer"), id, generationFolder(id), context.req.param("file"));
	});

	return app;
}
