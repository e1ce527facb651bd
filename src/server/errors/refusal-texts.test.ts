// A refusal the server writes is a catalogue message, so it answers in the request's language
// (docs/languages.md): `new AppError(code, (options) => someMessage({ ... }, options))`. This
// fence fails on a new `new AppError(code, "text")` or `` new AppError(code, `text ${value}`) ``
// under src/server; a code's own catalogue message (`new AppError(code)`) stays allowed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SERVER_ROOT = path.resolve(import.meta.dirname, "..");

/** The lines of `new AppError(code, <a string or template literal>)` in a source text. */
function findLiteralRefusals(source: string): number[] {
	const file = ts.createSourceFile("source.ts", source, ts.ScriptTarget.Latest, true);
	const lines: number[] = [];
	const visit = (node: ts.Node): void => {
		if (
			ts.isNewExpression(node) &&
			ts.isIdentifier(node.expression) &&
			node.expression.text === "AppError"
		) {
			const message = node.arguments?.[1];
			if (
				message &&
				(ts.isStringLiteral(message) ||
					ts.isNoSubstitutionTemplateLiteral(message) ||
					ts.isTemplateExpression(message)) &&
				/[A-Za-z]/.test(message.getText(file))
			) {
				lines.push(file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	return lines;
}

function listSources(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const entry = path.join(folder, name);
		if (statSync(entry).isDirectory()) return name === "testing" ? [] : listSources(entry);
		return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [entry] : [];
	});
}

describe("the server's refusals with a text of their own", () => {
	it("finds a refusal written as a text or a template, and not one from the catalogue", () => {
		expect(
			findLiteralRefusals(
				[
					'throw new AppError("VALIDATION_ERROR", "name is required");',
					// A template with a value in it: `you have no board ${id}`.
					'throw new AppError("NOT_FOUND", `you have no board $' + "{id}`);",
					'throw new AppError("NOT_FOUND");',
					'throw new AppError("VALIDATION_ERROR", (options) => serverNoBoard({ board }, options));',
					'throw new AppError("VALIDATION_ERROR", serverMaskEmpty);',
				].join("\n"),
			),
		).toEqual([1, 2]);
	});

	it("are all catalogue messages", () => {
		const found: Record<string, number> = {};
		for (const file of listSources(SERVER_ROOT)) {
			const count = findLiteralRefusals(readFileSync(file, "utf8")).length;
			if (count > 0) found[path.relative(SERVER_ROOT, file).split(path.sep).join("/")] = count;
		}
		expect(found).toEqual({});
	});
});
