import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { APP_PATHS, APP_ROUTES, findAppRoute } from "../../shared/core/app-routes";

const WEB_ROOT = join(import.meta.dirname, "..");

/** The web's production sources: tests and test support may write addresses as a person types them. */
function listProductionSources(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return entry.name === "testing" ? [] : listProductionSources(path);
		return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
	});
}

describe("the screens' addresses", () => {
	it("name each screen once, at its route's path", () => {
		const screens = APP_ROUTES.map((route) => route.screen);
		expect(new Set(screens).size).toBe(screens.length);
		for (const route of APP_ROUTES) {
			expect(APP_PATHS[route.screen]).toBe(route.path);
			expect(findAppRoute(APP_PATHS[route.screen])?.screen).toBe(route.screen);
		}
	});

	it("are never written by hand in a link or a navigation", () => {
		const handWritten = /(\bto=|\bhref=|navigate\(|redirectTo: |[cC]allbackURL: )["'`]\/(?!api\/)/;
		const offenders = listProductionSources(WEB_ROOT).flatMap((path) =>
			readFileSync(path, "utf8")
				.split("\n")
				.flatMap((line, index) =>
					handWritten.test(line)
						? [`${relative(WEB_ROOT, path)}:${index + 1}: ${line.trim()}`]
						: [],
				),
		);
		expect(offenders).toEqual([]);
	});
});
