import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { measureImageDifference } from "../../testing/image-data";
import { composeImages, type RenderInput, renderImages } from "./render";

function hashOf(data: string | Uint8Array): string {
	return createHash("sha256").update(data).digest("hex");
}

async function renderHashes(input: RenderInput): Promise<string[]> {
	return (await renderImages(input)).map((image) => hashOf(image.data));
}

const SEEDED: RenderInput = {
	prompt: "a quiet forest lake at dawn",
	aspectRatio: "--ar 3:2",
	count: 4,
	seed: 1234,
	negativePrompt: "birds",
};

describe("renders without a seed as before seeds existed", () => {
	// Rendered by the engine before it took seeds. Generations made then have no seed, and are
	// rendered again from their input after a restart: they must give the very same images. The SVG
	// is the engine's own work; the JPEG bytes also depend on sharp's libvips and mozjpeg, and on the
	// encoder's options (taken again without trellis quantisation: decision 044).
	it.each([
		{
			input: { prompt: "a quiet forest lake at dawn", aspectRatio: "--ar 1:1", count: 4 },
			svgs: [
				"69b9cdc068b1e62ac1825299c3362a0521895813b7d962e61adf7eff4c9cde54",
				"eb27240713306b392557518a4ed01efcbade127df3e4a6cc15542c9f3d38d71a",
				"f6f85ae9e529b4e60067d190d45ac40e4f0771dcf8f07440e193a4a549294f97",
				"e858f8d566adf820b35477f5971a3e39e59edec0259b02ee0f6bc1ef18200584",
			],
			jpegs: [
				"27b20da16b8a3a0c00397b86975e57525bbdeb1925e17afd33959c9848ac4f08",
				"a95e65cbc22ed34da91a942be1bc3c894e67bcf1de809dfbe15bde992dddb011",
				"50921d7b304557172c9aede3593a7a9fa597907c0d723c126bd9c283e5ec4aa1",
				"5587729e7975ca9235ee7282dc369e98acd8f4df656c599172a88a70a945757d",
			],
		},
		{
			input: { prompt: "neon cyberpunk city at night", aspectRatio: "--ar 16:9", count: 2 },
			svgs: [
				"98e3388a0a79b7e9d577b5ef4f0cac168063a86a3c4e64905d1311febdc35dbb",
				"bce4de3581c141b5d18ca2f6e694de38f6e6b5d206ed2b7dd851aa78fb2e7491",
			],
			jpegs: [
				"08f9fa76cdf0538e1cba309959d13fa7264eb84cbe45fb3d3ed2e6a15258aa2e",
				"21afc3cfc190ad114987bdaabe99e36711af1fd2bf619f32f197d767c3231631",
			],
		},
		{
			input: {
				prompt: "An hourglass on a study desk, steampunk, intricate details, 8k",
				aspectRatio: "--ar 3:2",
				count: 3,
			},
			svgs: [
				"dc66677074c45d04e154f36a888cd9ad663535c9175b716d15efd39fbb383e4a",
				"0071262615a4af2312c4b731ad23d35f830a1d0022e2f43630913ae73710dc12",
				"ae2734202f19ffbac8a41e19ce6fc0529e03fea0a4a91cc8dbcadd9fea1e8064",
			],
			jpegs: [
				"86847a11a3b9848486d4ead3f44881ce6eb5b17de607d544f0d421d8b2456ddc",
				"944dc7cdbef29c2d03bbc1da5d8e6c337bcd542becffc5fe78050f022e5891be",
				"c151a2f66cf00545ca610fb3ce254c6a1d2ef139896642967693db40d3ab6003",
			],
		},
	] as const)("$input.prompt", async ({ input, svgs, jpegs }) => {
		const legacy = { ...input, seed: null, negativePrompt: null };
		expect(composeImages(legacy).map((image) => hashOf(image.svg))).toEqual(svgs);
		expect(await renderHashes(legacy)).toEqual(jpegs);
		// An input written before the settings existed (no seed field at all) is the same input.
		expect(await renderHashes(input)).toEqual(jpegs);
	});
});

describe("renders with a seed", () => {
	it("gives the same bytes for the same prompt, ratio, count, negative prompt and seed", async () => {
		const first = await renderHashes(SEEDED);
		const second = await renderHashes({ ...SEEDED });
		expect(first).toHaveLength(4);
		expect(second).toEqual(first);
	});

	it("gives the same bytes in another process", async () => {
		// The engine bundled on its own and run by a fresh Node: nothing carried over from this one.
		await mkdir(".tmp", { recursive: true });
		const folder = await mkdtemp(path.join(".tmp", "engine-"));
		try {
			const entry = path.join(folder, "render-child.mjs");
			await build({
				stdin: {
					contents: `import { createHash } from "node:crypto";
import { renderImages } from "./render";
const images = await renderImages(JSON.parse(process.argv[2]));
console.log(JSON.stringify(images.map((image) => createHash("sha256").update(image.data).digest("hex"))));`,
					resolveDir: import.meta.dirname,
					loader: "ts",
				},
				outfile: entry,
				bundle: true,
				platform: "node",
				format: "esm",
				packages: "external",
				logLevel: "error",
			});
			const { stdout } = await promisify(execFile)(process.execPath, [
				entry,
				JSON.stringify(SEEDED),
			]);
			expect(z.array(z.string()).parse(JSON.parse(stdout))).toEqual(await renderHashes(SEEDED));
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});

	it("makes each image of a generation its own", async () => {
		const images = await renderImages({ ...SEEDED, negativePrompt: null });
		for (let a = 0; a < images.length; a++) {
			for (let b = a + 1; b < images.length; b++) {
				const imageA = images[a];
				const imageB = images[b];
				if (!imageA || !imageB) throw new Error("missing image");
				expect(await measureImageDifference(imageA.data, imageB.data)).toBeGreaterThan(6);
			}
		}
	});

	it("makes visibly different images with another seed", async () => {
		const input = { ...SEEDED, count: 1, prompt: "An hourglass on a study desk" };
		const [first] = await renderImages({ ...input, seed: 1 });
		const [second] = await renderImages({ ...input, seed: 2 });
		const [unseeded] = await renderImages({ ...input, seed: null });
		if (!first || !second || !unseeded) throw new Error("missing image");
		expect(await measureImageDifference(first.data, second.data)).toBeGreaterThan(6);
		expect(await measureImageDifference(first.data, unseeded.data)).toBeGreaterThan(6);
	});

	it("chooses scene, time of day, palette and layout from the seed", () => {
		const plans = Array.from({ length: 24 }, (_, seed) => {
			const [image] = composeImages({
				prompt: "An hourglass on a study desk",
				aspectRatio: "--ar 1:1",
				count: 1,
				seed,
			});
			if (!image) throw new Error("missing image");
			return image;
		});
		const distinct = <T>(values: T[]): number => new Set(values).size;
		expect(distinct(plans.map((image) => image.plan.kind))).toBeGreaterThan(3);
		expect(distinct(plans.map((image) => image.plan.lighting))).toBeGreaterThan(2);
		expect(distinct(plans.map((image) => Math.round(image.look.skyTop.h / 10)))).toBeGreaterThan(5);
		expect(distinct(plans.map((image) => image.svg))).toBe(plans.length);
	});

	it("starts a prompt's named scenes at a scene the seed chooses", () => {
		const firstScenes = new Set(
			Array.from({ length: 12 }, (_, seed) => {
				const [image] = composeImages({ ...SEEDED, negativePrompt: null, count: 1, seed });
				return image?.plan.kind;
			}),
		);
		expect(firstScenes).toEqual(new Set(["forest", "lake"]));
	});

	it.each([1, 2, 3, 4])("renders exactly %i image(s)", async (count) => {
		const images = await renderImages({ ...SEEDED, count });
		expect(images).toHaveLength(count);
		expect(new Set(images.map((image) => hashOf(image.data))).size).toBe(count);
	});
});
