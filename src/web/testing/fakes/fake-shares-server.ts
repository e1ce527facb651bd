import { HttpResponse, http } from "msw";
import { z } from "zod/mini";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/core/errors";
import {
	type CreatedShare,
	CreateShareRequestSchema,
	SHARE_EXPIRY_MS,
	type Share,
} from "../../../shared/history/sharing";
import { mswServer } from "../msw-server";

let nextShareNumber = 1;

/** A link as the account page lists it, made just now; pass only what the test is about. */
export function createTestShare(overrides: Partial<Share> = {}): Share {
	const number = nextShareNumber++;
	return {
		id: `00000000-0000-4000-9000-${String(number).padStart(12, "0")}`,
		target: {
			generationId: "0f8b8e6e-3a55-4c53-9a8a-2f1f6a1f6c2d",
			imageIndex: null,
			boardId: null,
		},
		prompt: `A shared prompt ${number}`,
		boardName: null,
		originals: false,
		showPrompt: true,
		state: "live",
		createdAt: new Date().toISOString(),
		expiresAt: null,
		views: 0,
		lastViewedAt: null,
		...overrides,
	};
}

/** A link to image 2 of "A lighthouse", made on 5 January 2025, seen the next day, prompt hidden. */
export function createLighthouseImageShare(overrides: Partial<Share> = {}): Share {
	return createTestShare({
		prompt: "A lighthouse",
		target: { generationId: "0f8b8e6e-3a55-4c53-9a8a-2f1f6a1f6c2d", imageIndex: 1, boardId: null },
		createdAt: "2025-01-05T09:00:00.000Z",
		lastViewedAt: "2025-01-06T10:00:00.000Z",
		showPrompt: false,
		...overrides,
	});
}

function withAddress(share: Share): CreatedShare {
	const token = `${share.id.replaceAll("-", "")}abcdefghijk`;
	return { ...share, token, url: `http://localhost:3000/s/${token}` };
}

/**
 * Answers `/api/shares` as the server does for a signed-in person: the list newest first, a new
 * link with its address once, a revoked link ended, a renewed one replaced. `failure` makes
 * creating answer with that error (and `failureMessage`, the server's words).
 */
export function startFakeSharesServer(
	options: { shares?: Share[]; failure?: ErrorCode; failureMessage?: string } = {},
) {
	const state = { shares: [...(options.shares ?? [])], requests: [] as unknown[] };
	const fail = (code: ErrorCode, message?: string) =>
		HttpResponse.json(
			{ success: false, error: errorBody(code, message) },
			{ status: ERRORS[code].status },
		);
	const end = (id: string) => {
		const share = state.shares.find((entry) => entry.id === id);
		if (share) share.state = "revoked";
		return share;
	};
	mswServer.use(
		http.get("*/api/shares", () => HttpResponse.json({ items: state.shares })),
		http.post("*/api/shares", async ({ request }) => {
			const body = await request.json();
			state.requests.push(body);
			if (options.failure) return fail(options.failure, options.failureMessage);
			const parsed = z.safeParse(CreateShareRequestSchema, body);
			if (!parsed.success) return fail("VALIDATION_ERROR");
			const { target, expires, originals, showPrompt } = parsed.data;
			const share = createTestShare({
				target:
					"boardId" in target
						? { generationId: null, imageIndex: null, boardId: target.boardId }
						: {
								generationId: target.generationId,
								imageIndex: target.imageIndex ?? null,
								boardId: null,
							},
				...("boardId" in target ? { prompt: null, boardName: "A shared board" } : {}),
				originals,
				showPrompt,
				expiresAt:
					expires === "never"
						? null
						: new Date(Date.now() + SHARE_EXPIRY_MS[expires]).toISOString(),
			});
			state.shares.unshift(share);
			return HttpResponse.json(withAddress(share), { status: 201 });
		}),
		http.delete("*/api/shares/:id", ({ params }) => {
			const share = end(String(params.id));
			return share ? HttpResponse.json(share) : fail("NOT_FOUND");
		}),
		http.post("*/api/shares/:id/rotate", ({ params }) => {
			const old = end(String(params.id));
			if (!old) return fail("NOT_FOUND");
			const share = createTestShare({ ...old, id: undefined, state: "live", views: 0 });
			const renewed = { ...share, id: createTestShare().id };
			state.shares.unshift(renewed);
			return HttpResponse.json(withAddress(renewed), { status: 201 });
		}),
	);
	return { readRequests: () => state.requests, readShares: () => state.shares };
}
