import { describe, expect, it } from "vitest";
import { formatRecipeParameters, type ImageRecipe, parseRecipeParameters } from "./image-recipe";
import { formatRecipeXmp, parseRecipeXmp, RECIPE_NAMESPACE } from "./image-recipe-xmp";

const RECIPE: ImageRecipe = {
	prompt: "A lighthouse at dusk, café au lait sky --ar 16:9",
	aspectRatio: "--ar 16:9",
	model: { id: "sketch", label: "Sketch: fast, rough" },
	count: 2,
	seed: 4_294_967_295,
	negativePrompt: "boats, people",
	quality: "high",
	width: 1024,
	height: 576,
	style: { id: "cinematic", name: "Cinematic: film" },
};

const BARE: ImageRecipe = {
	prompt: "A red fox",
	aspectRatio: "--ar 1:1",
	model: { id: "local", label: "Offline engine" },
	count: 4,
	seed: null,
	negativePrompt: null,
	quality: null,
	width: null,
	height: null,
	style: null,
};

describe("the parameters text", () => {
	it("writes the prompt, the negative prompt and a line of settings, as A1111 does", () => {
		expect(formatRecipeParameters(RECIPE)).toBe(
			[
				"A lighthouse at dusk, café au lait sky --ar 16:9",
				"Negative prompt: boats, people",
				'Seed: 4294967295, Size: 1024x576, Model: "Sketch: fast, rough", Model id: sketch, Aspect ratio: "16:9", Images: 2, Quality: high, Style: "Cinematic: film", Style id: cinematic, Generator: Atelier',
			].join("\n"),
		);
		expect(formatRecipeParameters(BARE)).toBe(
			'A red fox\nModel: Offline engine, Model id: local, Aspect ratio: "1:1", Images: 4, Generator: Atelier',
		);
	});

	it("reads back what it writes", () => {
		expect(parseRecipeParameters(formatRecipeParameters(RECIPE))).toEqual(RECIPE);
		expect(parseRecipeParameters(formatRecipeParameters(BARE))).toEqual(BARE);
		const multiline = { ...RECIPE, prompt: "Line one\nline two", negativePrompt: "a\nb" };
		expect(parseRecipeParameters(formatRecipeParameters(multiline))).toEqual(multiline);
		const enhanced = { ...RECIPE, originalPrompt: 'un phare, au crépuscule: "beau"' };
		expect(formatRecipeParameters(enhanced)).toContain('Original prompt: "un phare');
		expect(parseRecipeParameters(formatRecipeParameters(enhanced))).toEqual(enhanced);
	});

	it("reads another tool's A1111 text: prompt, negative prompt, seed, and a size of an offered ratio", () => {
		const text = [
			"masterpiece, a castle on a hill",
			"Negative prompt: blurry, lowres",
			'Steps: 30, Sampler: DPM++ 2M, CFG scale: 7, Seed: 1234567, Size: 1344x768, Model hash: 31e35c80fc, Model: sd_xl_base_1.0, Lora hashes: "a: 1, b: 2", Version: v1.9.0',
		].join("\n");
		expect(parseRecipeParameters(text)).toEqual({
			prompt: "masterpiece, a castle on a hill",
			aspectRatio: null,
			model: null,
			count: null,
			seed: 1234567,
			negativePrompt: "blurry, lowres",
			quality: null,
			width: 1344,
			height: 768,
			style: null,
		});
		expect(
			parseRecipeParameters("a castle\nSteps: 20, Seed: 7, Size: 1920x1080")?.aspectRatio,
		).toBe("--ar 16:9");
		expect(parseRecipeParameters("a castle\nSteps: 20, Seed: 7, Size: 512x512")?.aspectRatio).toBe(
			"--ar 1:1",
		);
	});

	it("keeps a last line with fewer than three settings in the prompt, as A1111 does", () => {
		expect(parseRecipeParameters("a cat\nstyle: watercolour")).toMatchObject({
			prompt: "a cat\nstyle: watercolour",
			seed: null,
		});
		expect(parseRecipeParameters("just a prompt")?.prompt).toBe("just a prompt");
	});

	it("leaves out what Atelier could not use, and answers null without a prompt", () => {
		const odd = parseRecipeParameters(
			"a cat\nSeed: 99999999999, Size: 7x5, Images: 9, Quality: ultra, Aspect ratio: 5:4",
		);
		expect(odd).toMatchObject({
			seed: null,
			width: 7,
			height: 5,
			count: null,
			quality: null,
			aspectRatio: null,
		});
		expect(parseRecipeParameters("")).toBeNull();
		expect(parseRecipeParameters("  \n \nSeed: 1, Size: 8x8, Steps: 2")).toBeNull();
		expect(parseRecipeParameters(`a${"x".repeat(70_000)}`)).toBeNull();
	});

	it("reads a long line without pairs in one pass", () => {
		const line = `${"word, ".repeat(9_000)}end`;
		expect(parseRecipeParameters(line)?.prompt).toBe(line);
	});
});

describe("the XMP packet", () => {
	it("carries every field in Atelier's namespace and the prompt as dc:description", () => {
		const xmp = formatRecipeXmp({ ...RECIPE, prompt: 'Fish & "chips" <b>' });
		expect(xmp).toContain(`xmlns:atelier="${RECIPE_NAMESPACE}"`);
		expect(xmp).toContain(
			'<rdf:li xml:lang="x-default">Fish &amp; &quot;chips&quot; &lt;b&gt;</rdf:li>',
		);
		expect(xmp).toContain("<atelier:seed>4294967295</atelier:seed>");
		expect(xmp).toContain("<atelier:modelLabel>Sketch: fast, rough</atelier:modelLabel>");
		expect(xmp.startsWith("<?xpacket begin=")).toBe(true);
		expect(xmp.endsWith('<?xpacket end="w"?>')).toBe(true);
	});

	it("reads back what it writes", () => {
		expect(parseRecipeXmp(formatRecipeXmp(RECIPE))).toEqual(RECIPE);
		expect(parseRecipeXmp(formatRecipeXmp(BARE))).toEqual(BARE);
		const escaped = { ...BARE, prompt: "Fish & \"chips\" 'n' ünïcødé 🦊", negativePrompt: "a\nb" };
		expect(parseRecipeXmp(formatRecipeXmp(escaped))).toEqual(escaped);
		const enhanced = { ...RECIPE, originalPrompt: "un phare & <la> mer" };
		expect(parseRecipeXmp(formatRecipeXmp(enhanced))).toEqual(enhanced);
	});

	it("reads a packet another tool rewrote: another prefix, attributes, numeric entities", () => {
		const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about='' xmlns:rc='${RECIPE_NAMESPACE}' rc:prompt='A fox &#x26; a hare' rc:seed="12" rc:imageCount="1">
<rc:aspectRatio>9:16</rc:aspectRatio></rdf:Description></rdf:RDF></x:xmpmeta>`;
		expect(parseRecipeXmp(xmp)).toMatchObject({
			prompt: "A fox & a hare",
			seed: 12,
			count: 1,
			aspectRatio: "--ar 9:16",
			model: null,
		});
	});

	it("answers null for a packet without Atelier's namespace or without a prompt", () => {
		const foreign =
			'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description>A photo</dc:description></rdf:Description></x:xmpmeta>';
		expect(parseRecipeXmp(foreign)).toBeNull();
		expect(parseRecipeXmp(formatRecipeXmp({ ...BARE, prompt: " " }))).toBeNull();
		expect(parseRecipeXmp("<atelier:prompt>unclosed")).toBeNull();
	});
});

describe("a region edit's reference", () => {
	const EDITED: ImageRecipe = {
		...BARE,
		regionEdit: { action: "expand", generationId: "0b6c5a52-8f0e-4a43-9d59-2f7a6f1c1e10" },
	};

	it("travels in both forms and reads back", () => {
		expect(formatRecipeParameters(EDITED)).toContain(
			"Region edit: expand, Region edit of: 0b6c5a52-8f0e-4a43-9d59-2f7a6f1c1e10",
		);
		expect(parseRecipeParameters(formatRecipeParameters(EDITED))).toEqual(EDITED);
		expect(parseRecipeXmp(formatRecipeXmp(EDITED))).toEqual(EDITED);
	});

	it("is left out when its action or id is not one Atelier writes", () => {
		const text = formatRecipeParameters(EDITED);
		expect(
			parseRecipeParameters(text.replace("Region edit: expand", "Region edit: upscale")),
		).toEqual(BARE);
		expect(
			parseRecipeParameters(text.replace("Region edit of: 0b6c", "Region edit of: <0b6c")),
		).toEqual(BARE);
	});
});
