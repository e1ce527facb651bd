import { describe, expect, it } from "vitest";
import { GenerationPageSchema } from "../../shared/generations/generation-responses";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestUser, useTestServer } from "../testing/test-server";

const GERMAN = { "accept-language": "de-DE,de;q=0.9" };
const ENGLISH = { "accept-language": "en-US,en;q=0.9" };

type Refusal = {
	name: string;
	json: object;
	headers?: Record<string, string>;
	english: string;
	german: string;
};

/**
 * A representative set of the generator's refusals with a text of their own: the settings
 * against the model (resolve-settings.ts), the request's schema, a prompt's choices, a style and
 * the idempotency key.
 */
const REFUSALS: Refusal[] = [
	{
		name: "an unknown model",
		json: { prompt: "a lighthouse", model: "no-such-model" },
		english: 'model "no-such-model" is not offered',
		german: 'Das Modell "no-such-model" wird nicht angeboten',
	},
	{
		name: "a strength without a reference",
		json: { prompt: "a lighthouse", strength: 0.5 },
		english: "strength is only taken with a reference",
		german: "strength gibt es nur zusammen mit reference",
	},
	{
		name: "a seed out of range, its limit written without separators",
		json: { prompt: "a lighthouse", seed: -5 },
		english: "seed must be a whole number from 0 to 4294967295, or -1 for a random seed",
		german:
			"seed muss eine ganze Zahl von 0 bis 4294967295 sein, oder -1 für einen zufälligen Seed",
	},
	{
		name: "an unbalanced choice in a batch's prompt",
		json: { prompt: "a {red|green lighthouse", variations: "all" },
		english: "prompt: a { has no matching } (write {red|green} for a choice)",
		german: "prompt: Zu einer { fehlt die passende } (schreib {red|green} für eine Auswahl)",
	},
	{
		name: "a style that is none",
		json: { prompt: "a lighthouse", aspectRatio: "--ar 1:1", style: "no-such-style" },
		english: "style must be the id of a style",
		german: "style muss die ID eines Stils sein",
	},
	{
		name: "a start without a ratio",
		json: { prompt: "a lighthouse" },
		english:
			"Aspect ratio must be one of --ar 1:1, --ar 3:2, --ar 16:9, --ar 21:9, --ar 2:3, --ar 9:16",
		german:
			"Das Seitenverhältnis muss eines von --ar 1:1, --ar 3:2, --ar 16:9, --ar 21:9, --ar 2:3, --ar 9:16 sein",
	},
	{
		name: "an idempotency key too long",
		json: { prompt: "a lighthouse" },
		headers: { "idempotency-key": "k".repeat(256) },
		english: "Idempotency-Key must be 1 to 255 printable ASCII characters.",
		german: "Idempotency-Key muss 1 bis 255 druckbare ASCII-Zeichen lang sein.",
	},
];

describe.each(availableDatabaseKinds())(
	"the generator's and the uploads' refusals in the person's language on %s",
	(kind) => {
		const server = useTestServer(kind);

		it("writes each refusal of a start in German for a German request and in its exact English otherwise", async () => {
			const person = await createTestUser(server());
			for (const refusal of REFUSALS) {
				const start = (language: Record<string, string>) =>
					person.client.request("/api/generations", {
						method: "POST",
						headers: { ...language, ...refusal.headers },
						json: refusal.json,
					});
				expect(
					await expectErrorEnvelope(await start(GERMAN), 400, "VALIDATION_ERROR"),
					refusal.name,
				).toBe(refusal.german);
				expect(
					await expectErrorEnvelope(await start(ENGLISH), 400, "VALIDATION_ERROR"),
					refusal.name,
				).toBe(refusal.english);
			}
			// Nothing was started by any of them.
			const history = await person.client.request("/api/generations");
			expect(GenerationPageSchema.parse(await history.json()).total).toBe(0);
		});

		it("refuses an upload without its file in German, and in English", async () => {
			const person = await createTestUser(server());
			const upload = (language: Record<string, string>) => {
				const form = new FormData();
				form.set("picture", new File(["not here"], "a.txt"));
				return person.client.request("/api/uploads", {
					method: "POST",
					headers: language,
					body: form,
				});
			};
			expect(await expectErrorEnvelope(await upload(GERMAN), 400, "VALIDATION_ERROR")).toBe(
				"image fehlt: Schick eine PNG-, JPEG- oder WebP-Datei im Multipart-Feld image.",
			);
			expect(await expectErrorEnvelope(await upload(ENGLISH), 400, "VALIDATION_ERROR")).toBe(
				"image is required: send one PNG, JPEG or WebP file in the multipart field image.",
			);
		});
	},
);
