import type { Kysely } from "kysely";
import { ACTIVE_GENERATION_STATUSES } from "../../../shared/generations/generation-responses";
import type { DatabaseSchema, GenerationRow } from "../../db/schema";
import type { Logger } from "../../logging/logger";
import type { Storage } from "../../storage/storage";
import { removeUnusedUploads } from "../../uploads/remove-uploads";
import { selectStoredObjectOwners } from "../generation-repository";
import { GENERATIONS_FOLDER, runFolder } from "./store-images";

const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Owner = Pick<
	GenerationRow,
	"id" | "status" | "images" | "lease_owner" | "reference_image" | "region_mask"
>;

/** Whether a generation's row (or its absence) still wants this stored object. */
function isWanted(key: string, owner: Owner | undefined): boolean {
	if (!owner) return false;
	// Its copy of the image it starts from, written at its creation, is its own whatever its status.
	if (owner.reference_image?.key === key || owner.region_mask?.key === key) return true;
	if (ACTIVE_GENERATION_STATUSES.includes(owner.status)) {
		// Only the run that holds the generation may be storing into it.
		return owner.lease_owner !== null && key.startsWith(runFolder(owner.id, owner.lease_owner));
	}
	return owner.images.some(
		(image) => key === image.key || key === image.displayKey || key === image.thumbnailKey,
	);
}

/**
 * Removes stored objects that no generation names: those of deleted generations (a crash between
 * the deleting transaction and the removal of the files) and those of runs that lost their claim
 * and could not remove them (killed while storing, when no run took over). The keys are listed
 * first and the rows read after, so an object a run is storing at that moment belongs to the run
 * the row names, and stays.
 */
export async function sweepStrayObjects(deps: {
	db: Kysely<DatabaseSchema>;
	storage: Storage;
}): Promise<number> {
	let removed = 0;
	for await (const keys of deps.storage.listKeys(GENERATIONS_FOLDER)) {
		const idOf = (key: string) => key.split("/")[1] ?? "";
		const ids = [...new Set(keys.map(idOf))].filter((id) => ID_PATTERN.test(id));
		const owners = new Map(
			(await selectStoredObjectOwners(deps.db, ids)).map((owner) => [owner.id, owner]),
		);
		const stray = keys.filter(
			(key) => ID_PATTERN.test(idOf(key)) && !isWanted(key, owners.get(idOf(key))),
		);
		if (stray.length > 0) await deps.storage.delete(stray);
		removed += stray.length;
	}
	return removed;
}

/** How often a worker process sweeps: stray objects cost space only, and a sweep lists the bucket. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** The first sweep waits until the server has settled after its start. */
const FIRST_SWEEP_DELAY_MS = 60 * 1000;

/**
 * Sweeps now and then (every hour, the first a minute after the start); returns the stop. The
 * same sweep removes the uploads no generation used within a day (uploads/remove-uploads.ts):
 * the one schedule of storage clean-up. Every worker process sweeps; each removal is safe to run
 * twice at once (a row is deleted by one statement, a missing object's removal is no error).
 */
export function keepStorageSwept(
	deps: { db: Kysely<DatabaseSchema>; storage: Storage },
	logger: Logger,
): () => void {
	const sweep = () => {
		sweepStrayObjects(deps)
			.then((removed) => {
				if (removed > 0) logger.info("removed stored objects no generation names", { removed });
			})
			.catch((error) => logger.warn("sweeping stray stored objects failed", { error }));
		removeUnusedUploads(deps)
			.then((removed) => {
				if (removed > 0) logger.info("removed uploads no generation used", { removed });
			})
			.catch((error) => logger.warn("removing unused uploads failed", { error }));
	};
	let interval: NodeJS.Timeout | undefined;
	const first = setTimeout(() => {
		sweep();
		interval = setInterval(sweep, SWEEP_INTERVAL_MS);
		interval.unref();
	}, FIRST_SWEEP_DELAY_MS);
	first.unref();
	return () => {
		clearTimeout(first);
		clearInterval(interval);
	};
}
