import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it, onTestFinished } from "vitest";

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
