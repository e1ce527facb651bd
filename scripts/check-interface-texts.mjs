// Refuses a literal interface text in the screens whose texts come from the message catalogue
// (docs/decisions/037-languages.md): JSX text with a letter in it, or a text attribute (label,
// title, placeholder, ...) written as a string. CONVERTED_SCREENS is the one list of the folders
// and files already moved to the catalogue; the fence grows as screens move. `npm run lint` runs
// it; `--root <folder>` reads another tree than the project's (its tests do).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The screens whose every text is the catalogue's, relative to the project. */
export const CONVERTED_SCREENS = [
	"src/web/features/auth",
	"src/web/features/admin",
	"src/web/app",
	"src/web/features/account",
	"src/web/features/history",
	"src/web/features/boards",
	"src/web/features/editor",
	"src/web/components/images/share-dialog.tsx",
	"src/web/components/images/share-link-field.tsx",
	"src/web/components/images/family-panel.tsx",
	"src/web/components/basics/confirm-dialog.tsx",
	"src/web/components/basics/query-status.tsx",
	"src/web/features/generator",
	"src/web/components/forms/model-select.tsx",
	"src/web/components/forms/seed-field.tsx",
];

// Attributes a person reads or hears.
const TEXT_ATTRIBUTES = new Set([
	"label",
	"title",
	"description",
	"placeholder",
	"alt",
	"aria-label",
	"aria-description",
	"confirmationLabel",
]);

function listFiles(entry) {
	if (!existsSync(entry)) return [];
	if (!statSync(entry).isDirectory()) return [entry];
	return readdirSync(entry).flatMap((name) => listFiles(path.join(entry, name)));
}

/** Each literal text of a TSX source, as `line: text`. */
export function findLiteralTexts(fileName, source) {
	const file = ts.createSourceFile(
		fileName,
		source,
		ts.ScriptTarget.Latest,
		true,
		ts.ScriptKind.TSX,
	);
	const found = [];
	const report = (node, text) => {
		const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
		found.push(`${line + 1}: ${text.trim().replace(/\s+/g, " ")}`);
	};
	const visit = (node) => {
		if (ts.isJsxText(node) && /\p{L}/u.test(node.text)) report(node, node.text);
		if (
			ts.isJsxAttribute(node) &&
			TEXT_ATTRIBUTES.has(node.name.getText(file)) &&
			node.initializer &&
			ts.isStringLiteral(node.initializer) &&
			/\p{L}/u.test(node.initializer.text)
		) {
			report(node, `${node.name.getText(file)}="${node.initializer.text}"`);
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const rootArgument = process.argv.indexOf("--root");
	const root =
		rootArgument === -1
			? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
			: path.resolve(process.argv[rootArgument + 1] ?? ".");
	const problems = [];
	for (const entry of CONVERTED_SCREENS) {
		for (const file of listFiles(path.join(root, entry))) {
			if (!/\.tsx$/.test(file) || /\.test\.tsx$/.test(file)) continue;
			for (const text of findLiteralTexts(file, readFileSync(file, "utf8"))) {
				problems.push(`${path.relative(root, file)}:${text}`);
			}
		}
	}
	if (problems.length > 0) {
		console.error(
			`Literal interface texts in screens whose texts come from the catalogue (src/shared/i18n/messages/en.json; docs/languages.md):\n${problems.join("\n")}`,
		);
		process.exit(1);
	}
}
