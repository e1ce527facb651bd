import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it, onTestFinished } from "vitest";
import { type Catalogue, message, registerCatalogue } from "../src/shared/i18n/runtime";

const run = promisify(execFile);
const script = path.resolve("scripts/compile-messages.mjs");

async function writeCatalogues(catalogues: Record<string, unknown>): Promise<string> {
	const root = await mkdtemp(path.join(tmpdir(), "compile-messages-"));
	onTestFinished(() => rm(root, { recursive: true, force: true }));
	const folder = path.join(root, "src/shared/i18n/messages");
	await mkdir(folder, { recursive: true });
	for (const [language, catalogue] of Object.entries(catalogues)) {
		await writeFile(path.join(folder, `${language}.json`), JSON.stringify(catalogue));
	}
	return root;
}

it("refuses a translation with a key English lacks, other parameters, or no plural forms", async () => {
	const root = await writeCatalogues({
		en: { greeting: "Hello {name}", count: { one: "{count} image", other: "{count} images" } },
		de: { greeting: "Hallo {person}", count: "Bilder", farewell: "Tschüss" },
	});
	const failure = await run("node", [script, "--check"], { cwd: root }).catch((error) => error);
	expect(failure.stderr).toContain('de.json: "greeting" has parameters {person}, en.json {name}');
	expect(failure.stderr).toContain('de.json: "count" must be plural forms as in en.json');
	expect(failure.stderr).toContain('de.json: "farewell" is not in en.json');
});

/** Compiles the catalogues in a folder of their own; answers a generated file's text by its name. */
async function compile(
	catalogues: Record<string, unknown>,
): Promise<(file: string) => Promise<string>> {
	const root = await writeCatalogues(catalogues);
	await run("node", [script], { cwd: root });
	return (file) => readFile(path.join(root, "src/shared/i18n", file), "utf8");
}

/** The catalogue a compiled translations/<language>.ts exports. */
function readTranslation(source: string): Catalogue {
	const start = source.indexOf("{", source.indexOf("export default"));
	return JSON.parse(source.slice(start, source.lastIndexOf("}") + 1));
}

it("writes each function with its English text alone, the translations keyed by that text", async () => {
	const read = await compile({
		en: {
			skipToContent: "Skip to content",
			imageCount: { one: "{count} image", other: "{count} images" },
		},
		de: {
			skipToContent: "Zum Inhalt",
			imageCount: { one: "{count} Bild", other: "{count} Bilder" },
		},
	});
	expect(await read("message-functions/skip-to-content.ts")).toContain(
		'export const skipToContent = /* @__PURE__ */ message("Skip to content");',
	);
	expect(await read("message-functions/image-count.ts")).not.toContain('"imageCount"');
	expect(readTranslation(await read("translations/de.ts"))).toEqual({
		"Skip to content": "Zum Inhalt",
		"{count} images": { one: "{count} Bild", other: "{count} Bilder" },
	});
});

it("finds messages that read alike in English but not in German by their keys", async () => {
	const read = await compile({
		en: { openFile: "Open", openState: "Open", close: "Close", closeMenu: "Close" },
		de: { openFile: "Öffnen", openState: "Offen", close: "Schließen", closeMenu: "Schließen" },
	});
	expect(await read("message-functions/open-file.ts")).toContain('message("Open", "openFile")');
	expect(await read("message-functions/close-menu.ts")).toContain('message("Close");');
	const german = readTranslation(await read("translations/de.ts"));
	expect(german).toEqual({ openFile: "Öffnen", openState: "Offen", Close: "Schließen" });
	registerCatalogue("de", german);
	const openFile = message("Open", "openFile");
	const openState = message("Open", "openState");
	const close = message("Close");
	expect([
		openFile({ language: "de" }),
		openState({ language: "de" }),
		close({ language: "de" }),
	]).toEqual(["Öffnen", "Offen", "Schließen"]);
	expect(openFile()).toBe("Open");
});
