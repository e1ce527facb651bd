import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import type { ModelsResponse, PublicModel } from "../../shared/models";

/** The one model a server offers without MODELS_FILE, with the offline engine. */
export const OFFLINE_ENGINE_MODEL: PublicModel = {
	id: "local",
	label: "Offline engine",
	description: null,
	pricePerImage: null,
	ratios: ["--ar 1:1", "--ar 3:2", "--ar 16:9", "--ar 21:9", "--ar 2:3", "--ar 9:16"],
	counts: [1, 2, 3, 4],
	seed: true,
	negativePrompt: true,
	qualities: [],
};

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
