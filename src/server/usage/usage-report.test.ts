import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type UsageReport, UsageReportSchema } from "../../shared/admin/usage-responses";
import { createModelCatalogue, modelFromProvider } from "../models/model-catalogue";
import { createLocalProvider } from "../providers/local/local-provider";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { requestGeneration, waitForFinish } from "../testing/generation-kit";
import { seedGeneration } from "../testing/history-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

type Person = Awaited<ReturnType<typeof createTestUser>>;

const DAY_MS = 86_400_000;
const PAINTER_PRICE = 0.04;

/** The calendar day of an instant in a time zone, `YYYY-MM-DD`. */
function dayIn(timeZone: string, instant: Date | number): string {
	return new Intl.DateTimeFormat("en-CA", { timeZone }).format(instant);
}

/** Midnight UTC, `days` days before today's. */
function utcMidnightDaysAgo(days: number): Date {
	const now = new Date();
	return new Date(
		Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY_MS,
	);
}

function daysAgo(days: number, plusMs = 0): Date {
	return new Date(utcMidnightDaysAgo(days).getTime() + 12 * 3_600_000 + plusMs);
}

describe.each(availableDatabaseKinds())("the usage report on %s", (kind) => {
	let server: TestServer;
	let admin: Person;
	let alice: Person;
	let bob: Person;
	let carol: Person;
	let spenders: Person[];
	let realBytes: number;

	async function readReport(query = ""): Promise<UsageReport> {
		const response = await admin.client.request(`/api/admin/usage${query}`);
		expect(response.status).toBe(200);
		return UsageReportSchema.parse(await response.json());
	}

	beforeAll(async () => {
		const local = createLocalProvider({ delayMs: 0 });
		server = await createTestServer(kind, {
			models: createModelCatalogue(
				[
					modelFromProvider(local, { id: "local", label: "Offline engine" }),
					modelFromProvider(local, {
						id: "painter",
						label: "Painter",
						pricePerImage: PAINTER_PRICE,
					}),
				],
				"local",
			),
		});
		admin = await createTestAdministrator(server);
		alice = await createTestUser(server, { email: "alice@example.com" });
		bob = await createTestUser(server, { email: "bob@example.com" });
		carol = await createTestUser(server, { email: "carol@example.com" });

		// Made through the API and the worker: its price and its bytes are recorded as it is made.
		const made = await requestGeneration(alice.client, "a lighthouse", "--ar 1:1", {
			model: "painter",
			count: 2,
		});
		expect((await waitForFinish(alice.client, made.pollingUrl)).status).toBe("completed");
		const row = await server.database.db
			.selectFrom("generations")
			.select(["price_per_image", "stored_bytes"])
			.where("id", "=", made.id)
			.executeTakeFirstOrThrow();
		expect(Number(row.price_per_image)).toBe(PAINTER_PRICE);
		realBytes = Number(row.stored_bytes);

		const seed = (person: Person, options: Omit<Parameters<typeof seedGeneration>[1], "userId">) =>
			seedGeneration(server, { userId: person.userId, ...options });
		// Two days ago: two priced generations of four images, sizes recorded.
		await seed(alice, {
			prompt: "alice two days ago",
			modelId: "painter",
			modelLabel: "Painter (old label)",
			createdAt: daysAgo(2),
			pricePerImage: 0.05,
			isSizeRecorded: true,
		});
		await seed(bob, {
			prompt: "bob two days ago",
			modelId: "painter",
			modelLabel: "Painter",
			createdAt: daysAgo(2, 1_000),
			pricePerImage: 0.05,
			isSizeRecorded: true,
		});
		// Before the window: stored now, but neither counted by day nor spent in the window.
		await seed(bob, {
			prompt: "bob long ago",
			modelId: "painter",
			createdAt: utcMidnightDaysAgo(29 + 1),
			pricePerImage: 1,
			isSizeRecorded: true,
		});
		// The window's first minute, by UTC days.
		await seed(bob, {
			prompt: "bob at the window's start",
			modelId: "local",
			createdAt: new Date(utcMidnightDaysAgo(29).getTime() + 60_000),
			imageCount: 1,
		});
		// Yesterday, on the free model, stored before sizes were recorded; three times to complete.
		for (const seconds of [20, 40, 90]) {
			const createdAt = daysAgo(1, seconds);
			await seed(carol, {
				prompt: `carol took ${seconds} seconds`,
				modelId: "local",
				createdAt,
				completedAt: new Date(createdAt.getTime() + seconds * 1_000),
				imageCount: 1,
			});
		}
		// Failures yesterday, one of each kind of message.
		const failures = [
			"Generation timed out",
			"The provider refused this prompt",
			"ComfyUI refused the workflow: no such node",
			"The image service did not accept Atelier's credentials",
			"The image service account has no credit left",
			"HTTP 503",
			"Polling HTTP 500",
			"The image service no longer knows this generation",
			"This model is no longer offered",
			"Generation failed",
			"Something the vendor said",
		];
		for (const [index, error] of failures.entries()) {
			await seed(carol, {
				prompt: `failure ${index}`,
				modelId: "local",
				status: "failed",
				error,
				createdAt: daysAgo(1, index),
			});
		}
		// Eleven more people spending, to show the top ten only.
		spenders = [];
		for (let index = 1; index <= 11; index++) {
			const person = await createTestUser(server, { email: `spender${index}@example.com` });
			spenders.push(person);
			await seed(person, {
				prompt: `spent ${index}`,
				modelId: "painter",
				imageCount: 1,
				createdAt: daysAgo(3),
				pricePerImage: index / 100,
			});
		}
	});
	afterAll(async () => {
		await server.close();
	});

	it("answers the administrator only", async () => {
		await expectErrorEnvelope(
			await new TestClient(server).request("/api/admin/usage"),
			401,
			"AUTH_ERROR",
		);
		// As with the audit log, anyone else learns nothing, not even that it exists.
		await expectErrorEnvelope(await alice.client.request("/api/admin/usage"), 404, "NOT_FOUND");
		const response = await admin.client.request("/api/admin/usage");
		expect(response.status).toBe(200);
		expect(response.headers.get("cache-control")).toBe("private, no-store");
		await expectErrorEnvelope(
			await admin.client.request("/api/admin/usage?timeZone=Mars/Olympus_Mons"),
			400,
			"VALIDATION_ERROR",
		);
	});

	it("covers the last thirty days, today last, in UTC unless a time zone is given", async () => {
		const report = await readReport();
		expect(report.timeZone).toBe("UTC");
		expect(report.days).toHaveLength(30);
		expect(report.days.at(-1)).toBe(dayIn("UTC", Date.now()));
		expect(report.days[0]).toBe(dayIn("UTC", utcMidnightDaysAgo(29)));
		expect(report.storage.byDay.map((entry) => entry.day)).toEqual(report.days);
		expect(report.spend.byDay.map((entry) => entry.day)).toEqual(report.days);

		const tokyo = await readReport("?timeZone=Asia/Tokyo");
		expect(tokyo.timeZone).toBe("Asia/Tokyo");
		expect(tokyo.days.at(-1)).toBe(dayIn("Asia/Tokyo", Date.now()));
		const carolsFirst = daysAgo(1, 20);
		expect(
			tokyo.generationsByDay.some(
				(entry) => entry.day === dayIn("Asia/Tokyo", carolsFirst) && entry.modelId === "local",
			),
		).toBe(true);
	});

	it("counts generations per day by model and outcome, from the window's first minute on", async () => {
		const report = await readReport();
		const today = dayIn("UTC", Date.now());
		const twoDaysAgo = dayIn("UTC", daysAgo(2));
		const yesterday = dayIn("UTC", daysAgo(1));
		const firstDay = report.days[0];
		const counts = (day: string | undefined, modelId: string) =>
			report.generationsByDay.find((entry) => entry.day === day && entry.modelId === modelId);

		expect(counts(twoDaysAgo, "painter")).toEqual({
			day: twoDaysAgo,
			modelId: "painter",
			completed: 2,
			failed: 0,
			total: 2,
		});
		expect(counts(yesterday, "local")).toEqual({
			day: yesterday,
			modelId: "local",
			completed: 3,
			failed: 11,
			total: 14,
		});
		expect(counts(today, "painter")).toMatchObject({ completed: 1, total: 1 });
		expect(counts(firstDay, "local")).toMatchObject({ completed: 1, total: 1 });
		// Nothing from before the window.
		expect(report.generationsByDay.every((entry) => report.days.includes(entry.day))).toBe(true);
		// The catalogue's labels, not the ones rows were made under.
		expect(report.models).toEqual([
			{ id: "local", label: "Offline engine" },
			{ id: "painter", label: "Painter" },
		]);
	});

	it("groups failures by reason", async () => {
		const report = await readReport();
		const yesterday = dayIn("UTC", daysAgo(1));
		expect(report.failuresByDay).toEqual([
			{ day: yesterday, reason: "TIMED_OUT", count: 1 },
			{ day: yesterday, reason: "VALIDATION_ERROR", count: 2 },
			{ day: yesterday, reason: "AUTH_ERROR", count: 2 },
			{ day: yesterday, reason: "API_ERROR", count: 3 },
			{ day: yesterday, reason: "MODEL_REMOVED", count: 1 },
			{ day: yesterday, reason: "UNKNOWN_ERROR", count: 2 },
		]);
	});

	it("gives each model's median time from creation to completion", async () => {
		const report = await readReport();
		const local = report.completionTimes.find((entry) => entry.modelId === "local");
		// 20, 40 and 90 seconds, and the window's first generation, completed as it was made.
		expect(local).toEqual({ modelId: "local", completed: 4, medianSeconds: 30 });
		expect(report.completionTimes.find((entry) => entry.modelId === "painter")?.completed).toBe(14);
	});

	it("counts the images stored and their bytes, apart from the images whose size is unknown", async () => {
		const report = await readReport();
		// 2 made today, 4 + 4 two days ago, 4 long ago (sizes recorded); 1 + 3 + 11 without sizes.
		expect(report.storage.totalImages).toBe(2 + 4 + 4 + 4 + 1 + 3 + 11);
		expect(report.storage.imagesWithoutBytes).toBe(1 + 3 + 11);
		const seededBytes = await server.database.db
			.selectFrom("generations")
			.select((eb) => eb.fn.sum<string>("stored_bytes").as("bytes"))
			.where("user_id", "in", [alice.userId, bob.userId])
			.executeTakeFirstOrThrow();
		expect(report.storage.totalBytes).toBe(Number(seededBytes.bytes));
		expect(realBytes).toBeGreaterThan(0);
		const byDay = new Map(report.storage.byDay.map((entry) => [entry.day, entry]));
		expect(byDay.get(dayIn("UTC", Date.now()))).toMatchObject({ images: 2, bytes: realBytes });
		expect(byDay.get(dayIn("UTC", daysAgo(1)))).toMatchObject({ images: 3, bytes: 0 });
		expect(byDay.get(dayIn("UTC", daysAgo(3)))).toMatchObject({ images: 11, bytes: 0 });
	});

	it("estimates spend per day at each generation's own price, and its ten biggest spenders", async () => {
		const report = await readReport();
		const spend = new Map(report.spend.byDay.map((entry) => [entry.day, entry.amount]));
		expect(spend.get(dayIn("UTC", Date.now()))).toBeCloseTo(2 * PAINTER_PRICE, 10);
		expect(spend.get(dayIn("UTC", daysAgo(2)))).toBeCloseTo(8 * 0.05, 10);
		expect(spend.get(dayIn("UTC", daysAgo(3)))).toBeCloseTo(0.66, 10);
		expect(spend.get(dayIn("UTC", daysAgo(1)))).toBe(0);
		expect(report.spend.total).toBeCloseTo(2 * PAINTER_PRICE + 8 * 0.05 + 0.66, 10);
		expect(report.spend.currency).toBe("USD");
		// The free model's images, yesterday's and the first day's.
		expect(report.spend.unpricedImages).toBe(3 + 1);

		expect(report.topSpenders.map((entry) => entry.email)).toEqual([
			"alice@example.com",
			"bob@example.com",
			"spender11@example.com",
			"spender10@example.com",
			"spender9@example.com",
			"spender8@example.com",
			"spender7@example.com",
			"spender6@example.com",
			"spender5@example.com",
			"spender4@example.com",
		]);
		expect(report.topSpenders[0]?.images).toBe(6);
		expect(report.topSpenders[0]?.amount).toBeCloseTo(2 * PAINTER_PRICE + 4 * 0.05, 10);
		expect(report.topSpenders[1]?.amount).toBeCloseTo(0.2, 10);
		expect(spenders).toHaveLength(11);
	});
});
