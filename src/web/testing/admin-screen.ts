import { screen, within } from "@testing-library/react";
import { createTestUser, startFakeAuthServer } from "./fakes/fake-auth-server";
import { renderApp } from "./render-app";

// What the administrator's screen tests share, in English and in German: the real app signed in
// as the administrator (or as a person who is not), and the rows of a screen's table.

/** The real app at `path`, signed in as admin@example.com, the administrator unless `isAdmin` is false. */
export function openAs({ isAdmin, path }: { isAdmin: boolean; path: string }) {
	startFakeAuthServer({ signedInAs: createTestUser({ isAdmin, email: "admin@example.com" }) });
	return renderApp({ path });
}

/** Each row's cells as text, the header row left out, of `table` (the screen's one table unless given). */
export function readRows(table: HTMLElement = screen.getByRole("table")) {
	return within(table)
		.getAllByRole("row")
		.slice(1)
		.map((row) =>
			within(row)
				.getAllByRole("cell")
				.map((cell) => cell.textContent),
		);
}
