import { describe, expect, it, onTestFinished } from "vitest";
import {
	type FakeHttpImageService,
	startFakeHttpImageService,
} from "../../testing/fakes/http-image-service";
import { createTestImage, startTestJob } from "../../testing/provider-kit";
import { ProviderOptionError } from "../shared/provider-definition";
import { HTTP_PROVIDER } from "./http-options";
import { createHttpProvider } from "./http-provider";

// The http contract's optional image fields: what an entry says its service does with an image,
// and the image and mask sent as data: URLs.

async function startService(): Promise<FakeHttpImageService> {
	const service = await startFakeHttpImageService({ latencyMs: 0 });
	onTestFinished(() => service.stop());
	return service;
}

const CONTEXT = {
	env: { IMAGE_API_URL: "http://127.0.0.1:9/generate", LOG_LEVEL: "error" },
	baseDir: "/",
} as unknown as Parameters<typeof HTTP_PROVIDER.create>[1];

describe("http provider: images and masks, where the entry says the service takes them", () => {
	it("takes an image and a mask only where the entry says so, a mask only with an image", () => {
		const capabilitiesOf = (image: Parameters<typeof HTTP_PROVIDER.create>[2]) =>
			HTTP_PROVIDER.create({}, CONTEXT, image).capabilities;
		expect(capabilitiesOf({})).toMatchObject({ imageInput: false, mask: false, outpaint: false });
		expect(capabilitiesOf({ imageInput: true })).toMatchObject({ imageInput: true, mask: false });
		expect(capabilitiesOf({ imageInput: true, mask: true })).toMatchObject({
			imageInput: true,
			referenceStrength: false,
			mask: true,
			outpaint: true,
		});
		expect(capabilitiesOf({ imageInput: true, mask: true, outpaint: false })).toMatchObject({
			mask: true,
			outpaint: false,
		});
		expect(() => HTTP_PROVIDER.create({}, CONTEXT, { mask: true })).toThrow(ProviderOptionError);
		expect(() => HTTP_PROVIDER.create({}, CONTEXT, { mask: true })).toThrow(
			"mask: needs imageInput: true, the service taking the image",
		);
	});

	it("fetches its images by URL only where the entry says imageUrls: true, and refuses to start without them served", async () => {
		const image = { imageInput: true, mask: true } as const;
		expect(HTTP_PROVIDER.create({}, CONTEXT, image).fetchesImageUrls).toBe(false);
		expect(HTTP_PROVIDER.create({ imageUrls: true }, CONTEXT, image).fetchesImageUrls).toBe(true);
		const service = await startService();
		const provider = createHttpProvider({
			apiUrl: service.url,
			requestTimeoutMs: 5_000,
			images: { image: true, mask: true, outpaint: true },
			imageUrls: true,
		});
		const picture = await createTestImage({ width: 40, height: 30 });
		await expect(
			startTestJob(provider, { image: { kind: "region", image: picture, mask: picture } }),
		).rejects.toThrow("The image to send by URL was not served");
		expect(service.startCount()).toBe(0);
	});

	it("sends a variation's image alone, and a region's image and mask, as data: URLs", async () => {
		const service = await startService();
		const provider = createHttpProvider({
			apiUrl: service.url,
			requestTimeoutMs: 5_000,
			images: { image: true, mask: true, outpaint: true },
		});
		const image = await createTestImage({ width: 40, height: 30 });
		await startTestJob(provider, { image: { kind: "reference", image, strength: 0.5 } });
		const mask = await createTestImage({ width: 40, height: 30 });
		await startTestJob(provider, { image: { kind: "region", image, mask } });
		const [variation, region] = service.requests().map((request) => request.body);
		expect(variation).toMatchObject({ image: expect.stringMatching(/^data:image\/png;base64,/) });
		expect(variation).not.toHaveProperty("mask");
		expect(region).toMatchObject({
			image: expect.stringMatching(/^data:image\/png;base64,/),
			mask: expect.stringMatching(/^data:image\/png;base64,/),
		});
		expect(service.receivedImages().map((sent) => [sent.image.width, sent.mask?.width])).toEqual([
			[40, undefined],
			[40, 40],
		]);
	});
});
