import { HttpResponse, http } from "msw";
import { errorBody } from "../../../shared/core/errors";
import {
	PROMPT_PLACEHOLDER,
	type PromptStyle,
} from "../../../shared/prompts/prompt-tool-responses";

// A stand-in for the prompt tools' API (styles) at the network edge, answered the way the server
// answers; the generations fake serves it too, so every generator test has it.

export type FakePromptToolsOptions = {
	/** The styles `GET /api/styles` lists; none unless told. */
	styles?: PromptStyle[];
};

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuse(message: string) {
	return HttpResponse.json(
		{ success: false, error: errorBody("VALIDATION_ERROR", message) },
		{ status: 400 },
	);
}

function notFound() {
	return HttpResponse.json({ success: false, error: errorBody("NOT_FOUND") }, { status: 404 });
}

/** The handlers and what they keep: the styles, changed by the person's own saves. */
export function createFakePromptTools(options: FakePromptToolsOptions = {}) {
	let styles = [...(options.styles ?? [])];
	let created = 0;
	const handlers = [
		http.get("*/api/styles", () => HttpResponse.json({ items: styles })),
		// The last prompts: none, unless a test serves its own.
		http.get("*/api/prompts/recent", () => HttpResponse.json({ items: [] })),
		http.post("*/api/styles", async ({ request }) => {
			const body: unknown = await request.json().catch(() => null);
			if (!isRecord(body) || typeof body.name !== "string" || body.name.trim() === "") {
				return refuse("name must be 1 to 60 characters");
			}
			if (typeof body.prompt !== "string" || !body.prompt.includes(PROMPT_PLACEHOLDER)) {
				return refuse(`prompt must contain ${PROMPT_PLACEHOLDER} and be 500 characters or less`);
			}
			created += 1;
			const style: PromptStyle = {
				id: `00000000-0000-4000-8000-${String(created).padStart(12, "0")}`,
				name: body.name.trim(),
				prompt: body.prompt,
				negativePrompt: typeof body.negativePrompt === "string" ? body.negativePrompt : null,
				scope: "personal",
			};
			styles = [...styles, style];
			return HttpResponse.json(style, { status: 201 });
		}),
		http.patch("*/api/styles/:id", async ({ request, params }) => {
			const body: unknown = await request.json().catch(() => null);
			const style = styles.find((item) => item.id === params.id && item.scope === "personal");
			if (!style) return notFound();
			const name = isRecord(body) && typeof body.name === "string" ? body.name.trim() : style.name;
			const renamed = { ...style, name };
			styles = styles.map((item) => (item.id === style.id ? renamed : item));
			return HttpResponse.json(renamed);
		}),
		http.delete("*/api/styles/:id", ({ params }) => {
			const style = styles.find((item) => item.id === params.id && item.scope === "personal");
			if (!style) return notFound();
			styles = styles.filter((item) => item.id !== style.id);
			return HttpResponse.json({ success: true });
		}),
	];
	return { handlers, readStyles: () => styles };
}
