import { type CompiledQuery, Kysely, PostgresDialect, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	type GenerationPage,
	GenerationPageSchema,
	GenerationSchema,
} from "../../shared/generations/generations";
import type { DatabaseSchema } from "../db/schema";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { minutesAgo, seedGeneration } from "../testing/history-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	type TestServer,
} from "../testing/test-server";
import { countHistory, selectHistoryPage } from "./history-repository";

type Person = Awaited<ReturnType<typeof createTestUser>>;

const DAY_MS = 86_400_000;

function daysAgo(days: number): Date {
	return new Date(Date.now() - days * DAY_MS);
}

async function listPage(person: Person, query: Record<string, string>): Promise<GenerationPage> {
	const response = await person.client.request(`/api/generations?${new URLSearchParams(query)}`);
	expect(response.status).toBe(200);
	return GenerationPageSchema.parse(await response.json());
}

function prompts(page: GenerationPage): string[] {
	return page.items.map((item) => item.prompt);
}

describe.each(availableDatabaseKinds())("history search and filters on %s", (kind) => {
	let server: TestServer;
	let admin: Person;

	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
		admin = await createTestAdministrator(server);
	});
	afterAll(async () => {
		await server.close();
	});

	it("finds words and parts of words anywhere in the prompt, in any case, newest first, with counts", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const seed = (prompt: string, createdAt: Date) =>
			seedGeneration(server, { userId: person.userId, prompt, createdAt, imageCount: 0 });
		await seed("A Lighthouse at dusk", new Date(Date.now() - 1_000));
		await seed("moonlight over the sea", new Date(Date.now() - 2_000));
		await seed("a quiet forest", new Date(Date.now() - 3_000));
		await seed("studio LIGHTING test", daysAgo(3));
		await seedGeneration(server, { userId: other.userId, prompt: "another lighthouse" });

		for (const q of ["light", "LIGHT", "  light  "]) {
			const page = await listPage(person, { q });
			expect(prompts(page)).toEqual([
				"A Lighthouse at dusk",
				"moonlight over the sea",
				"studio LIGHTING test",
			]);
			expect({ total: page.total, today: page.today }).toEqual({ total: 3, today: 2 });
		}
		const none = await listPage(person, { q: "zebra" });
		expect({ items: none.items.length, total: none.total, nextCursor: none.nextCursor }).toEqual({
			items: 0,
			total: 0,
			nextCursor: null,
		});
		// An empty search is no search.
		expect((await listPage(person, { q: "   " })).total).toBe(4);
	});

	it("searches the whole history, page by page, and a cursor continues its own search", async () => {
		const person = await createTestUser(server);
		await seedGeneration(server, {
			userId: person.userId,
			prompt: "an ancient lighthouse",
			createdAt: daysAgo(40),
			imageCount: 0,
		});
		for (let index = 0; index < 30; index++) {
			await seedGeneration(server, {
				userId: person.userId,
				prompt: index % 10 === 0 ? `lighthouse number ${index}` : `meadow number ${index}`,
				createdAt: minutesAgo(index + 1),
				imageCount: 0,
			});
		}
		const first = await listPage(person, { q: "lighthouse", limit: "2" });
		expect(prompts(first)).toEqual(["lighthouse number 0", "lighthouse number 10"]);
		expect(first.total).toBe(4);
		const second = await listPage(person, {
			q: "lighthouse",
			limit: "2",
			cursor: first.nextCursor ?? "",
		});
		expect(prompts(second)).toEqual(["lighthouse number 20", "an ancient lighthouse"]);
		expect(second.nextCursor).toBeNull();
		expect(second.total).toBe(4);
	});

	it("matches %, _ and \\ as themselves", async () => {
		const person = await createTestUser(server);
		for (const prompt of ["100% cute", "snake_case art", "back\\slash", "plain words"]) {
			await seedGeneration(server, { userId: person.userId, prompt, imageCount: 0 });
		}
		expect(prompts(await listPage(person, { q: "%" }))).toEqual(["100% cute"]);
		expect(prompts(await listPage(person, { q: "_" }))).toEqual(["snake_case art"]);
		expect(prompts(await listPage(person, { q: "\\" }))).toEqual(["back\\slash"]);
		expect(prompts(await listPage(person, { q: "0%" }))).toEqual(["100% cute"]);
	});

	it("refuses an over-long search and malformed filters with VALIDATION_ERROR", async () => {
		const person = await createTestUser(server);
		const longest = await listPage(person, { q: ` ${"x".repeat(200)} ` });
		expect(longest.total).toBe(0);
		const message = await expectErrorEnvelope(
			await person.client.request(`/api/generations?q=${"x".repeat(201)}`),
			400,
			"VALIDATION_ERROR",
		);
		expect(message).toBe("Search text must be 200 characters or less");
		for (const query of [
			"ratio=--ar%205%3A4",
			"ratio=16:9",
			"favorites=yes",
			"owner=someone%40example.com",
			"limit=0",
			"cursor=garbage",
		]) {
			await expectErrorEnvelope(
				await person.client.request(`/api/generations?${query}`),
				400,
				"VALIDATION_ERROR",
			);
		}
	});

	it("counts today from midnight in the time zone the client names, and refuses an unknown zone", async () => {
		// Zones of fixed offsets (no daylight saving): Etc/GMT-14 is UTC+14, Etc/GMT+12 is UTC-12.
		for (const [timeZone, offsetHours] of [
			["Etc/GMT-14", 14],
			["Etc/GMT+12", -12],
			["UTC", 0],
		] as const) {
			const person = await createTestUser(server);
			const offsetMs = offsetHours * 3_600_000;
			const midnight = Math.floor((Date.now() + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
			for (const createdAt of [midnight, midnight - 1_000]) {
				await seedGeneration(server, {
					userId: person.userId,
					prompt: `around midnight in ${timeZone}`,
					createdAt: new Date(createdAt),
					imageCount: 0,
				});
			}
			const page = await listPage(person, { timeZone });
			expect({ timeZone, total: page.total, today: page.today }).toEqual({
				timeZone,
				total: 2,
				today: 1,
			});
			const searched = await listPage(person, { timeZone, q: "midnight" });
			expect({ timeZone, today: searched.today }).toEqual({ timeZone, today: 1 });
		}
		const person = await createTestUser(server);
		await expectErrorEnvelope(
			await person.client.request("/api/generations?timeZone=Mars%2FOlympus_Mons"),
			400,
			"VALIDATION_ERROR",
		);
	});

	it("filters by aspect ratio and favourites, combined with each other and with search", async () => {
		const person = await createTestUser(server);
		const seed = (prompt: string, aspectRatio: "--ar 16:9" | "--ar 1:1", isFavorite: boolean) =>
			seedGeneration(server, {
				userId: person.userId,
				prompt,
				aspectRatio,
				isFavorite,
				imageCount: 0,
			});
		await seed("wide one", "--ar 16:9", false);
		await seed("wide starred", "--ar 16:9", true);
		await seed("square lighthouse starred", "--ar 1:1", true);
		await seed("square lighthouse", "--ar 1:1", false);
		await seed("wide lighthouse", "--ar 16:9", false);

		const wide = await listPage(person, { ratio: "--ar 16:9" });
		expect(prompts(wide)).toEqual(["wide lighthouse", "wide starred", "wide one"]);
		expect(wide.total).toBe(3);
		expect(wide.items.every((item) => item.aspect_ratio === "--ar 16:9")).toBe(true);

		const starred = await listPage(person, { favorites: "true" });
		expect(prompts(starred)).toEqual(["square lighthouse starred", "wide starred"]);
		expect(starred.items.every((item) => item.is_favorite)).toBe(true);
		expect({ total: starred.total, today: starred.today }).toEqual({ total: 2, today: 2 });

		expect(prompts(await listPage(person, { favorites: "true", ratio: "--ar 16:9" }))).toEqual([
			"wide starred",
		]);
		expect(prompts(await listPage(person, { q: "lighthouse", ratio: "--ar 1:1" }))).toEqual([
			"square lighthouse",
			"square lighthouse starred",
		]);
		const all = await listPage(person, { q: "LIGHTHOUSE", favorites: "true", ratio: "--ar 1:1" });
		expect(prompts(all)).toEqual(["square lighthouse starred"]);
		expect(all.total).toBe(1);
		// Sent empty or false, a filter is off.
		expect((await listPage(person, { favorites: "false", ratio: "", owner: "" })).total).toBe(5);
	});

	it("lets the administrator filter by person's e-mail, alone or with search, and no one else", async () => {
		const painter = await createTestUser(server);
		const sculptor = await createTestUser(server);
		await seedGeneration(server, {
			userId: painter.userId,
			prompt: "painted harbour",
			imageCount: 0,
		});
		await seedGeneration(server, {
			userId: painter.userId,
			prompt: "painted hills",
			imageCount: 0,
		});
		await seedGeneration(server, {
			userId: sculptor.userId,
			prompt: "marble harbour",
			imageCount: 0,
		});

		const painters = await listPage(admin, { owner: painter.email.toUpperCase() });
		expect(prompts(painters)).toEqual(["painted hills", "painted harbour"]);
		expect(painters.total).toBe(2);
		expect(painters.items.every((item) => item.owner_email === painter.email)).toBe(true);

		const harbours = await listPage(admin, { q: "harbour" });
		expect(harbours.items.map((item) => [item.prompt, item.owner_email])).toEqual(
			expect.arrayContaining([
				["marble harbour", sculptor.email],
				["painted harbour", painter.email],
			]),
		);
		expect(prompts(await listPage(admin, { q: "harbour", owner: sculptor.email }))).toEqual([
			"marble harbour",
		]);
		const nobody = await listPage(admin, { owner: "nobody@example.com" });
		expect({ items: nobody.items.length, total: nobody.total, today: nobody.today }).toEqual({
			items: 0,
			total: 0,
			today: 0,
		});
		await expectErrorEnvelope(
			await admin.client.request("/api/generations?owner=not-an-e-mail"),
			400,
			"VALIDATION_ERROR",
		);
		// A person cannot look at someone else's history through the filter.
		const message = await expectErrorEnvelope(
			await painter.client.request(`/api/generations?owner=${encodeURIComponent(sculptor.email)}`),
			400,
			"VALIDATION_ERROR",
		);
		expect(message).toBe("Only the administrator can filter by person.");
	});

	it("keeps favourites on the server, set by the owner only", async () => {
		const person = await createTestUser(server);
		const stranger = await createTestUser(server);
		const { id } = await seedGeneration(server, { userId: person.userId, prompt: "a red fox" });
		const star = (who: Person, favorite: unknown, target = id) =>
			who.client.request(`/api/generations/${target}/favorite`, {
				method: "PUT",
				json: { favorite },
			});

		const read = async () =>
			GenerationSchema.parse(await (await person.client.request(`/api/generations/${id}`)).json())
				.is_favorite;
		expect(await read()).toBe(false);
		const starred = await star(person, true);
		expect(starred.status).toBe(200);
		expect(await starred.json()).toEqual({ success: true, favorite: true });
		expect(await read()).toBe(true);
		expect(prompts(await listPage(person, { favorites: "true" }))).toEqual(["a red fox"]);

		// Neither a stranger nor the administrator may star someone else's generation.
		await expectErrorEnvelope(await star(stranger, false), 404, "NOT_FOUND");
		await expectErrorEnvelope(await star(admin, false), 404, "NOT_FOUND");
		expect(await read()).toBe(true);
		const adminView = await listPage(admin, { owner: person.email });
		expect(adminView.items[0]?.is_favorite).toBe(true);

		await expectErrorEnvelope(await star(person, "yes"), 400, "VALIDATION_ERROR");
		await expectErrorEnvelope(
			await person.client.request(`/api/generations/${id}/favorite`, {
				method: "PUT",
				headers: { "content-type": "application/json" },
				body: "{ not json",
			}),
			400,
			"VALIDATION_ERROR",
		);
		await expectErrorEnvelope(await star(person, true, "not-an-id"), 404, "NOT_FOUND");
		await expectErrorEnvelope(
			await star(person, true, "00000000-0000-4000-8000-000000000000"),
			404,
			"NOT_FOUND",
		);

		expect(await (await star(person, false)).json()).toEqual({ success: true, favorite: false });
		expect(await read()).toBe(false);
		expect((await listPage(person, { favorites: "true" })).total).toBe(0);
	});

	it("serves word-part search from the trigram index", async () => {
		const person = await createTestUser(server);
		// Enough history, shaped like real rows (four stored images each), that reading it all would
		// cost more than the index: 3,000 other prompts.
		await sql`
			insert into generations (id, user_id, prompt, aspect_ratio, status, provider, model_id, model_label, polling_url, images, created_at, updated_at)
			select gen_random_uuid(), ${person.userId}, 'filler scene ' || g || ', a quiet forest at dawn', '--ar 1:1',
				'completed', 'local', 'local', 'Offline engine', null,
				(select jsonb_agg(jsonb_build_object(
					'key', 'generations/' || g || '/run/' || i || '.png', 'contentType', 'image/png',
					'width', 1024, 'height', 1024, 'thumbnailKey', 'generations/' || g || '/run/' || i || '-thumb.webp',
					'thumbnailWidth', 384, 'thumbnailHeight', 384)) from generate_series(0, 3) as i),
				now() - g * interval '1 minute', now()
			from generate_series(1, 3000) as g`.execute(server.database.db);
		for (const minutes of [5, 500, 2500]) {
			await seedGeneration(server, {
				userId: person.userId,
				prompt: `A Lighthouse at dusk ${minutes}`,
				createdAt: minutesAgo(minutes + 0.5),
				imageCount: 0,
			});
		}
		await sql`analyze generations, generation_search`.execute(server.database.db);

		const page = await listPage(person, { q: "GHTHOU" });
		expect(prompts(page)).toEqual([
			"A Lighthouse at dusk 5",
			"A Lighthouse at dusk 500",
			"A Lighthouse at dusk 2500",
		]);
		expect(page.total).toBe(3);

		// The same queries the route makes, captured as compiled, then explained.
		const queries: CompiledQuery[] = [];
		const logged = new Kysely<DatabaseSchema>({
			dialect: new PostgresDialect({ pool: server.database.pool }),
			log: (event) => {
				if (event.level === "query") queries.push(event.query);
			},
		});
		const filters = { userId: person.userId, search: "GHTHOU" };
		await selectHistoryPage(logged, {
			filters,
			cursor: undefined,
			limit: 25,
			isOwnerShown: false,
		});
		await countHistory(logged, { filters, todayStart: new Date() });
		expect(queries).toHaveLength(2);
		for (const query of queries) {
			const plan = await server.database.pool.query(`explain ${query.sql}`, [...query.parameters]);
			const text = plan.rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
			expect(text).toContain("generation_search_prompt");
		}
	});
});
