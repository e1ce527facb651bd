import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGE_COOKIE } from "../../shared/i18n/languages";
import { makeFinishedGeneration } from "../testing/api-token-kit";
import { createShare, createVisitor, pathOf } from "../testing/share-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";

const GERMAN = { "accept-language": "de-DE,de;q=0.9,en;q=0.5" };

async function readHtml(response: Response, status: number): Promise<string> {
	expect(response.status).toBe(status);
	expect(response.headers.get("vary")?.toLowerCase()).toContain("accept-language");
	return response.text();
}

describe.each(availableDatabaseKinds())("the shared page's language on %s", (kind) => {
	let server: TestServer;
	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server?.close();
	});

	it("writes the page in the visitor's Accept-Language, signed out, and English without one", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const share = await createShare(owner.client, generation.id);
		const visitor = createVisitor(server);

		const german = await readHtml(await visitor.request(pathOf(share), { headers: GERMAN }), 200);
		expect(german).toContain('<html lang="de">');
		expect(german).toContain("Diese Seite melden");
		expect(german).toContain("<dt>Modell</dt>");
		expect(german).toContain("Dieser Link funktioniert bis");
		expect(german).not.toContain("Report this page");
		const preview = await readHtml(
			await visitor.request(`${pathOf(share)}?image=0`, { headers: GERMAN }),
			200,
		);
		expect(preview).toContain(">Alle Bilder</a>");

		const english = await readHtml(await visitor.request(pathOf(share)), 200);
		expect(english).toContain('<html lang="en">');
		expect(english).toContain("<summary>Report this page</summary>");
		expect(english).toContain("This link works until");
	});

	it("follows this browser's chosen language over its Accept-Language", async () => {
		const owner = await createTestUser(server);
		const generation = await makeFinishedGeneration(owner);
		const share = await createShare(owner.client, generation.id);
		const visitor = createVisitor(server, "198.51.100.21");
		const html = await readHtml(
			await visitor.request(pathOf(share), {
				headers: { "accept-language": "en-US", cookie: `${LANGUAGE_COOKIE}=de` },
			}),
			200,
		);
		expect(html).toContain('<html lang="de">');
		expect(html).toContain("Geteilt aus Atelier");
	});

	it("says a link that does not exist in the visitor's language", async () => {
		const visitor = createVisitor(server, "198.51.100.22");
		const html = await readHtml(
			await visitor.request(`/s/${"A".repeat(43)}`, { headers: GERMAN }),
			404,
		);
		expect(html).toContain('<html lang="de">');
		expect(html).toContain("Diesen Link gibt es nicht");
	});
});
