import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it, onTestFinished } from "vitest";

const run = promisify(execFile);
const script = path.resolve("scripts/check-interface-texts.mjs");

async function writeScreen(file: string, text: string): Promise<string> {
	const root = await mkdtemp(path.join(tmpdir(), "interface-texts-"));
	onTestFinished(() => rm(root, { recursive: true, force: true }));
	await mkdir(path.dirname(path.join(root, file)), { recursive: true });
	await writeFile(path.join(root, file), text);
	return root;
}

it("refuses a literal text or text attribute in a converted screen, naming file and line", async () => {
	const root = await writeScreen(
		"src/web/features/auth/login-page.tsx",
		[
			'import { signInTitle } from "../../../shared/i18n/messages";',
			"export function LoginPage() {",
			"\treturn (",
			'\t\t<form title={signInTitle()} className="space-y-4">',
			'\t\t\t{signInTitle()}{" "}',
			'\t\t\t<input placeholder="you@example.com" />',
			"\t\t\tForgot password?",
			"\t\t</form>",
			"\t);",
			"}",
		].join("\n"),
	);
	const failure = await run("node", [script, "--root", root]).catch((error) => error);
	expect(failure.code).toBe(1);
	expect(failure.stderr).toContain(
		'src/web/features/auth/login-page.tsx:6: placeholder="you@example.com"',
	);
	expect(failure.stderr).toContain("src/web/features/auth/login-page.tsx:7: Forgot password?");
	expect(failure.stderr).not.toContain("space-y-4");
});

it("lets a screen through whose texts all come from the catalogue, and leaves unconverted ones alone", async () => {
	const root = await writeScreen(
		"src/web/features/auth/login-page.tsx",
		'export const Page = () => <p className="mt-2">{signInTitle()}</p>;\n',
	);
	// A folder no list will name: a screen not converted yet.
	await mkdir(path.join(root, "src/web/features/not-converted"), { recursive: true });
	await writeFile(
		path.join(root, "src/web/features/not-converted/some-page.tsx"),
		"export const Page = () => <p>Not converted yet</p>;\n",
	);
	await expect(run("node", [script, "--root", root])).resolves.toBeDefined();
});

it("finds nothing to refuse in the project's converted screens", async () => {
	await expect(run("node", [script])).resolves.toBeDefined();
});
