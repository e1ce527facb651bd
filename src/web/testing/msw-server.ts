import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import type { ActiveGenerations } from "../../shared/generations/generation-responses";
import type { ModelsResponse } from "../../shared/generations/models";
import { createTestModel } from "./fakes/test-generations";

/** The one model a server offers without MODELS_FILE, with the offline engine. */
const OFFLINE_ENGINE_MODEL = createTestModel();

// What the generator at `/` asks for as soon as it shows, answered as a fresh server would: the
// offline engine as the one model, and no generations to pick up. Tests about these endpoints add their own
// handlers, which take precedence; every other request still has to be handled by the test.
const ambientHandlers = [
	http.get("*/api/config", () =>
		HttpResponse.json({ googleEnabled: false, imageProvider: "local" }),
	),
	http.get("*/api/generations", () =>
		HttpResponse.json({ items: [], nextCursor: null, total: 0, today: 0 }),
	),
	// The header's "1 running" asks once the page has painted; a fresh server has nothing running.
	http.get("*/api/generations/active", () =>
		HttpResponse.json({ count: 0, items: [], version: "none" } satisfies ActiveGenerations),
	),
	// The user menu reads the account's theme as soon as it shows; a fresh account follows the system.
	http.get("*/api/account/settings", () =>
		HttpResponse.json({ theme: "system", language: "browser" }),
	),
	http.get("*/api/models", () =>
		HttpResponse.json({
			models: [OFFLINE_ENGINE_MODEL],
			defaultModelId: OFFLINE_ENGINE_MODEL.id,
			preferredModelId: null,
		} satisfies ModelsResponse),
	),
];

/** The network edge of every web test; each test adds the handlers it needs. */
export const mswServer = setupServer(...ambientHandlers);
