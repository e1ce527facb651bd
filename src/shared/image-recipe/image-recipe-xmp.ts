// The recipe of a generated image in its XMP form: a packet with Atelier's namespace and the
// prompt as dc:description, which photo tools show as the image's caption. Pure code with no schema
// library, like the `parameters` form beside it (image-recipe.ts); the containers that carry the
// packet are in image-recipe-files.ts.
import { toRatioParam } from "../generations/aspect-ratios";
import { checkFields, type ImageRecipe, MAX_RECIPE_TEXT, type RawFields } from "./image-recipe";

/**
 * Atelier's XMP namespace. A namespace is a name, not an address: `.invalid` is reserved (RFC
 * 2606), so this one can never be anyone else's.
 */
export const RECIPE_NAMESPACE = "http://ns.atelier.invalid/recipe/1.0/";
const PREFIX = "atelier";

/** XMP fields of the namespace and the raw field each one carries. */
const XMP_FIELDS = [
	["prompt", "prompt"],
	["negativePrompt", "negativePrompt"],
	["aspectRatio", "aspectRatio"],
	["modelId", "modelId"],
	["modelLabel", "modelLabel"],
	["imageCount", "count"],
	["seed", "seed"],
	["quality", "quality"],
	["width", "width"],
	["height", "height"],
	["styleId", "styleId"],
	["styleName", "styleName"],
	["regionEdit", "regionAction"],
	["regionEditOf", "regionGenerationId"],
	["originalPrompt", "originalPrompt"],
] as const satisfies readonly (readonly [string, keyof RawFields])[];

function escapeXml(text: string): string {
	return (
		text
			// Characters XML 1.0 cannot hold at all, even escaped.
			// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it removes.
			.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
			.replace(/&/g, "&amp;")
			.replace(/</g, "&lt;")
			.replace(/>/g, "&gt;")
			.replace(/"/g, "&quot;")
	);
}

function xmpValues(recipe: ImageRecipe): Record<(typeof XMP_FIELDS)[number][0], string | null> {
	return {
		prompt: recipe.prompt,
		negativePrompt: recipe.negativePrompt,
		aspectRatio: recipe.aspectRatio ? toRatioParam(recipe.aspectRatio) : null,
		modelId: recipe.model?.id ?? null,
		modelLabel: recipe.model?.label ?? null,
		imageCount: recipe.count === null ? null : String(recipe.count),
		seed: recipe.seed === null ? null : String(recipe.seed),
		quality: recipe.quality,
		width: recipe.width ? String(recipe.width) : null,
		height: recipe.height ? String(recipe.height) : null,
		styleId: recipe.style?.id ?? null,
		styleName: recipe.style?.name ?? null,
		regionEdit: recipe.regionEdit?.action ?? null,
		regionEditOf: recipe.regionEdit?.generationId ?? null,
		originalPrompt: recipe.originalPrompt ?? null,
	};
}

/**
 * The recipe as an XMP packet: Atelier's namespace with every field, and the prompt as
 * dc:description, which photo tools show as the image's caption.
 */
export function formatRecipeXmp(recipe: ImageRecipe): string {
	const values = xmpValues(recipe);
	const properties = XMP_FIELDS.flatMap(([name]) => {
		const value = values[name];
		return value === null ? [] : [`   <${PREFIX}:${name}>${escapeXml(value)}</${PREFIX}:${name}>`];
	});
	return [
		'<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
		'<x:xmpmeta xmlns:x="adobe:ns:meta/">',
		' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
		'  <rdf:Description rdf:about=""',
		'    xmlns:dc="http://purl.org/dc/elements/1.1/"',
		`    xmlns:${PREFIX}="${RECIPE_NAMESPACE}">`,
		"   <dc:description>",
		"    <rdf:Alt>",
		`     <rdf:li xml:lang="x-default">${escapeXml(recipe.prompt)}</rdf:li>`,
		"    </rdf:Alt>",
		"   </dc:description>",
		...properties,
		"  </rdf:Description>",
		" </rdf:RDF>",
		"</x:xmpmeta>",
		'<?xpacket end="w"?>',
	].join("\n");
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeXml(text: string): string {
	return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,4});/gi, (entity, name: string) => {
		if (name.startsWith("#")) {
			const code =
				name[1] === "x" || name[1] === "X"
					? Number.parseInt(name.slice(2), 16)
					: Number(name.slice(1));
			return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
		}
		return ENTITIES[name] ?? entity;
	});
}

/** The prefix a packet binds to Atelier's namespace (tools may choose their own), if any. */
function findPrefix(xml: string): string | null {
	for (const quote of ['"', "'"]) {
		const at = xml.indexOf(`=${quote}${RECIPE_NAMESPACE}${quote}`);
		if (at < 0) continue;
		const declaration = xml.lastIndexOf("xmlns:", at);
		const prefix = declaration < 0 ? "" : xml.slice(declaration + "xmlns:".length, at);
		if (/^[A-Za-z_][\w.-]{0,31}$/.test(prefix)) return prefix;
	}
	return null;
}

/** A property's text, written as an element or (as some tools rewrite XMP) as an attribute. */
function readProperty(xml: string, name: string): string | undefined {
	const open = `<${name}>`;
	const start = xml.indexOf(open);
	if (start >= 0) {
		const end = xml.indexOf(`</${name}>`, start);
		if (end >= 0) return unescapeXml(xml.slice(start + open.length, end));
	}
	for (const quote of ['"', "'"]) {
		const attribute = `${name}=${quote}`;
		const at = xml.indexOf(attribute);
		if (at < 0) continue;
		const end = xml.indexOf(quote, at + attribute.length);
		if (end >= 0) return unescapeXml(xml.slice(at + attribute.length, end));
	}
	return undefined;
}

/** Reads Atelier's fields from an XMP packet; null when it has none (another tool's packet). */
export function parseRecipeXmp(xml: string): ImageRecipe | null {
	if (xml.length > MAX_RECIPE_TEXT * 4) return null;
	const prefix = findPrefix(xml);
	if (!prefix) return null;
	const fields: RawFields = {};
	for (const [name, field] of XMP_FIELDS) fields[field] = readProperty(xml, `${prefix}:${name}`);
	return checkFields(fields);
}
