import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createModelCatalogue, modelFromProvider } from "../models/model-catalogue";
import { createHttpProvider } from "../providers/http/http-provider";
import { createSignedUrls, SIGNED_FILE_PATH } from "../storage/signed-urls";
import {
	type FakeHttpImageService,
	startFakeHttpImageService,
} from "../testing/fakes/http-image-service";
import {
	compare,
	createRegionEditServer,
	editRegionOn,
	HOLE,
	isInHole,
	readBytes,
	SOURCE_SIZE,
} from "../testing/region-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import type { TestServer } from "../testing/test-server";
import { createTestSettings, TEST_BASE_URL } from "../testing/test-settings";

// The http contract's image and mask sent as short-lived signed URLs the service fetches (an
// entry's `imageUrls`), from a server listening on a real port, as a service reaches it.

const StartBodySchema = z.object({ image: z.string().optional(), mask: z.string().optional() });

describe.each(availableDatabaseKinds())("the http contract's images by signed URL (%s)", (kind) => {
	let server: TestServer;
	let listener: HttpServer;
	let baseUrl: string;
	let service: FakeHttpImageService;

	beforeAll(async () => {
		// Listening first: the signed URLs name the address the service fetches from.
		listener = createServer(getRequestListener((request) => server.app.fetch(request)));
		await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
		baseUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
		service = await startFakeHttpImageService({ behaviour: { latencyMs: 0, imageCount: 1 } });
		const entry = (imageUrls: boolean) =>
			createHttpProvider({
				apiUrl: service.url,
				images: { image: true, mask: true, outpaint: true },
				imageUrls,
			});
		const catalogue = createModelCatalogue(
			[
				modelFromProvider(entry(true), { id: "by-url", label: "Fetches its images" }),
				modelFromProvider(entry(false), { id: "inline", label: "Takes its images inline" }),
			],
			"by-url",
		);
		server = await createRegionEditServer(kind, catalogue, {
			baseUrl,
			trustedOrigins: [TEST_BASE_URL],
		});
	});
	afterAll(async () => {
		await server?.close();
		await service?.stop();
		await new Promise((resolve) => listener?.close(resolve));
	});

	async function editRegion(model: string) {
		const { person, source, edited } = await editRegionOn(server, model);
		const starts = service.requests().filter((request) => request.method === "POST");
		const start = StartBodySchema.parse(starts.at(-1)?.body ?? {});
		return { person, source, edited, start };
	}

	it("sends the image and mask as signed URLs the service fetches without a session, and keeps every pixel outside the mask", async () => {
		const { person, source, edited, start } = await editRegion("by-url");
		const prefix = `${baseUrl}${SIGNED_FILE_PATH}`;
		expect(start.image?.startsWith(prefix)).toBe(true);
		expect(start.mask?.startsWith(prefix)).toBe(true);
		expect(start.image).not.toBe(start.mask);
		// The service fetched both, with no cookie, at its start.
		expect(service.fetchedUrls().slice(-2)).toEqual([
			{ url: start.image, status: 200 },
			{ url: start.mask, status: 200 },
		]);
		const [sent] = service.receivedImages().slice(-1);
		expect(sent && [sent.image.width, sent.image.height]).toEqual([
			SOURCE_SIZE.width,
			SOURCE_SIZE.height,
		]);
		expect(sent?.mask?.grey[(HOLE.top + 1) * SOURCE_SIZE.width + HOLE.left + 1]).toBe(255);
		expect(sent?.mask?.grey[0]).toBe(0);
		const result = await readBytes(person.client, edited.images[0]?.url ?? "");
		const { keptMax, changedMean } = await compare(result, source, (x, y) => !isInHole(x, y));
		expect(keptMax).toBeLessThanOrEqual(2);
		expect(changedMean).toBeGreaterThan(30);
		// Once the job is over the served files are gone: the URLs answer 404.
		for (const url of [start.image ?? "", start.mask ?? ""]) {
			expect((await fetch(url)).status).toBe(404);
		}
	});

	it("answers a signed URL for its one file until it ends, and 404 alike once expired, altered or signed with another secret", async () => {
		const { edited } = await editRegion("by-url");
		const maskKey = `generations/${edited.id}/mask.png`;
		const { secret } = createTestSettings();
		const signer = (now: number, withSecret = secret) =>
			createSignedUrls({ storage: server.storage, baseUrl, secret: withSecret, now: () => now });
		const fresh = await signer(Date.now()).urlFor(maskKey);
		const answer = await fetch(fresh);
		expect(answer.status).toBe(200);
		expect(answer.headers.get("content-type")).toBe("image/png");
		expect(answer.headers.get("cache-control")).toBe("private, no-store");
		expect((await sharp(Buffer.from(await answer.arrayBuffer())).metadata()).width).toBe(
			SOURCE_SIZE.width,
		);

		const refused = async (url: string) => {
			const reply = await fetch(url);
			return { status: reply.status, body: await reply.text() };
		};
		const unknown = await refused(`${baseUrl}${SIGNED_FILE_PATH}nothing`);
		expect(unknown.status).toBe(404);
		// Sixteen minutes ago: ended a minute ago.
		const expired = await signer(Date.now() - 16 * 60 * 1000).urlFor(maskKey);
		expect(await refused(expired)).toEqual(unknown);
		// One character of the signature changed.
		const last = fresh.at(-1) === "A" ? "B" : "A";
		expect(await refused(`${fresh.slice(0, -1)}${last}`)).toEqual(unknown);
		// Another file's name under this file's signature and expiry.
		const [, , signature] = fresh.slice(fresh.lastIndexOf("/") + 1).split(".");
		const [, expires] = fresh.slice(fresh.lastIndexOf("/") + 1).split(".");
		const otherKey = Buffer.from(`generations/${edited.id}/source.png`).toString("base64url");
		expect(
			await refused(`${baseUrl}${SIGNED_FILE_PATH}${otherKey}.${expires}.${signature}`),
		).toEqual(unknown);
		// A later expiry under the same signature.
		const later = fresh.replace(`.${expires}.`, `.${Number(expires) + 3600}.`);
		expect(await refused(later)).toEqual(unknown);
		const foreign = await signer(
			Date.now(),
			"another-secret-that-is-at-least-32-characters",
		).urlFor(maskKey);
		expect(await refused(foreign)).toEqual(unknown);
	});

	it("still sends the image and mask inline as data: URLs where the entry does not ask for URLs", async () => {
		const { start } = await editRegion("inline");
		expect(start.image).toMatch(/^data:image\/png;base64,/);
		expect(start.mask).toMatch(/^data:image\/png;base64,/);
	});
});
