// The Trash at the network edge (decision 031): a server with TRASH_DAYS above 0, whose deletions
// move generations out of the fake generations API's history into its Trash, and back on Restore.
import { HttpResponse, http } from "msw";
import type { Generation } from "../../../shared/generations/generation-responses";
import type { TrashItem } from "../../../shared/history/trash";
import { mswServer } from "../msw-server";
import type { startFakeGenerationsApi } from "./fake-generations-api";

type FakeGenerationsApi = ReturnType<typeof startFakeGenerationsApi>;

const TRASH_DAYS = 30;
const DAY_MS = 86_400_000;

/** A generation as the Trash lists it, deleted `deletedAt`. */
export function createTestTrashItem(generation: Generation, deletedAt = new Date()): TrashItem {
	return {
		...generation,
		deletedAt: deletedAt.toISOString(),
		purgeAt: new Date(deletedAt.getTime() + TRASH_DAYS * DAY_MS).toISOString(),
	};
}

function readIds(body: unknown): string[] {
	if (typeof body !== "object" || body === null || !("ids" in body)) return [];
	const { ids } = body;
	return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

/**
 * Adds the Trash to `generations` (its handlers take precedence): the config says there is one,
 * Delete and bulk delete move what they name to the Trash (`permanent: false`), and the Trash's
 * own routes list, restore, delete forever and empty it. `trash` is what is in it to begin with.
 */
export function startFakeTrashApi(generations: FakeGenerationsApi, trash: TrashItem[] = []) {
	const state = { trash: [...trash], requests: [] as Array<{ method: string; path: string }> };
	const record = (request: Request) =>
		state.requests.push({ method: request.method, path: new URL(request.url).pathname });
	const moveToTrash = (ids: readonly string[]) => {
		const found = generations.readGenerations().filter((item) => ids.includes(item.id));
		for (const generation of found) {
			generations.removeGeneration(generation.id);
			state.trash.unshift(createTestTrashItem(generation));
		}
		return found.length;
	};
	const takeFromTrash = (ids: readonly string[]) => {
		const taken = state.trash.filter((item) => ids.includes(item.id));
		state.trash = state.trash.filter((item) => !ids.includes(item.id));
		return taken;
	};
	mswServer.use(
		http.get("*/api/config", () =>
			HttpResponse.json({ googleEnabled: false, imageProvider: "local", trash: true }),
		),
		http.delete("*/api/generations/:id", ({ request, params }) => {
			record(request);
			const deleted = moveToTrash([String(params.id)]);
			if (deleted === 0) {
				return HttpResponse.json(
					{ error: { code: "NOT_FOUND", message: "Generation not found" } },
					{ status: 404 },
				);
			}
			return HttpResponse.json({ success: true, permanent: false });
		}),
		http.post("*/api/generations/bulk-delete", async ({ request }) => {
			record(request);
			const deleted = moveToTrash(readIds(await request.json()));
			return HttpResponse.json({ success: true, deleted, permanent: false });
		}),
		http.get("*/api/trash", ({ request }) => {
			record(request);
			return HttpResponse.json({ items: state.trash, nextCursor: null });
		}),
		http.post("*/api/trash/restore", async ({ request }) => {
			record(request);
			const restored = takeFromTrash(readIds(await request.json()));
			for (const item of restored) {
				const { deletedAt: _deletedAt, purgeAt: _purgeAt, ...generation } = item;
				generations.addGeneration(generation);
			}
			return HttpResponse.json({ success: true, restored: restored.length });
		}),
		http.post("*/api/trash/delete", async ({ request }) => {
			record(request);
			const deleted = takeFromTrash(readIds(await request.json())).length;
			return HttpResponse.json({ success: true, deleted });
		}),
		http.post("*/api/trash/empty", ({ request }) => {
			record(request);
			const deleted = state.trash.length;
			state.trash = [];
			return HttpResponse.json({ success: true, deleted });
		}),
	);
	return {
		/** What is in the Trash now, newest deletion first. */
		readTrash: () => state.trash,
		/** The Trash's requests (and deletions) made so far, as `METHOD /path`. */
		readRequests: () => state.requests.map((request) => `${request.method} ${request.path}`),
	};
}
