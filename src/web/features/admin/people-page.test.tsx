import { screen, waitFor, within } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import { openAs, readRows } from "../../testing/admin-screen";
import { startFakeAuditLogServer } from "../../testing/fakes/fake-audit-log-server";
import { createTestPerson, startFakePeopleServer } from "../../testing/fakes/fake-people-server";

async function findTable() {
	return screen.findByRole("table", undefined, { timeout: 10_000 });
}

function readEmails() {
	return readRows().map((row) => row[0]?.replace(/\(you\)|Quota:.*$/g, "").trim());
}

function columnHeader(name: string) {
	return screen.getByRole("columnheader", { name: new RegExp(`^${name}`) });
}

describe("the People page", () => {
	afterEach(() => {
		toast.dismiss();
	});

	it("lists everyone with their figures: signed up, last active, generations, images, bytes, spend, status", async () => {
		startFakePeopleServer({
			people: [
				createTestPerson({
					email: "bob@example.com",
					signedUpAt: "2025-01-05T10:00:00.000Z",
					lastActiveAt: null,
					generations: 1234,
					generationsThisMonth: 12,
					images: 40,
					imageBytes: 52_400_000,
					spend: 1.6,
					status: "disabled",
					quota: { maxActive: 1, daily: 0 },
				}),
			],
		});
		openAs({ isAdmin: true, path: "/admin/people" });

		expect(
			await screen.findByRole("heading", { level: 1, name: "People" }, { timeout: 10_000 }),
		).toBeVisible();
		await findTable();
		expect(readRows()).toEqual([
			[
				"bob@example.comQuota: 1 at once, no daily limit",
				"Jan 5, 2025",
				"Never",
				"1,234",
				"12",
				"40",
				"52.4 MB",
				"$1.60",
				"Disabled",
				"",
			],
		]);
		expect(screen.getByText("Page 1 of 1 · 1 person")).toBeVisible();
		expect(screen.getAllByRole("link", { name: /audit log/i })[0]).toHaveAttribute(
			"href",
			"/admin/audit-log",
		);
	});

	it("sorts by a column when its header is pressed, saying which way in aria-sort", async () => {
		const server = startFakePeopleServer({
			people: [
				createTestPerson({ email: "a@example.com", spend: 1 }),
				createTestPerson({ email: "b@example.com", spend: 3 }),
				createTestPerson({ email: "c@example.com", spend: 2 }),
			],
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/people" });
		await findTable();
		expect(columnHeader("Person")).toHaveAttribute("aria-sort", "ascending");
		expect(columnHeader("Spend")).toHaveAttribute("aria-sort", "none");

		await user.click(within(columnHeader("Spend")).getByRole("button"));

		await waitFor(() =>
			expect(readEmails()).toEqual(["b@example.com", "c@example.com", "a@example.com"]),
		);
		expect(columnHeader("Spend")).toHaveAttribute("aria-sort", "descending");
		expect(columnHeader("Person")).toHaveAttribute("aria-sort", "none");
		expect(server.readRequests().at(-1)?.get("sort")).toBe("spend");

		await user.click(within(columnHeader("Spend")).getByRole("button"));
		await waitFor(() =>
			expect(readEmails()).toEqual(["a@example.com", "c@example.com", "b@example.com"]),
		);
		expect(columnHeader("Spend")).toHaveAttribute("aria-sort", "ascending");
	});

	it("searches by e-mail on the server and pages through the results", async () => {
		const people = Array.from({ length: 60 }, (_, index) =>
			createTestPerson({ email: `user${String(index).padStart(2, "0")}@example.com` }),
		);
		const server = startFakePeopleServer({
			people: [...people, createTestPerson({ email: "zed@other.org" })],
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/people" });
		await findTable();
		expect(readRows()).toHaveLength(50);
		expect(screen.getByText("Page 1 of 2 · 61 people")).toBeVisible();

		await user.click(screen.getByRole("button", { name: "Next" }));
		await waitFor(() => expect(readRows()).toHaveLength(11));
		expect(screen.getByText("Page 2 of 2 · 61 people")).toBeVisible();
		expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();

		await user.type(screen.getByRole("searchbox", { name: "Search by e-mail" }), "other");
		await waitFor(() => expect(readEmails()).toEqual(["zed@other.org"]));
		expect(server.readRequests().at(-1)?.get("search")).toBe("other");
		expect(server.readRequests().at(-1)?.get("page")).toBe("1");

		await user.clear(screen.getByRole("searchbox", { name: "Search by e-mail" }));
		await user.type(screen.getByRole("searchbox", { name: "Search by e-mail" }), "nobody");
		expect(await screen.findByText("Nobody's e-mail contains “nobody”.")).toBeVisible();
	});

	it("disables and enables a person after asking, and only then", async () => {
		const server = startFakePeopleServer({
			people: [createTestPerson({ email: "bob@example.com" })],
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/people" });
		await findTable();

		await user.click(screen.getByRole("button", { name: "Actions for bob@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Disable…" }));
		const dialog = await screen.findByRole("alertdialog", { name: "Disable this person?" });
		expect(dialog).toHaveTextContent("signed out everywhere at once");
		await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
		expect(server.readActions()).toEqual([]);

		await user.click(screen.getByRole("button", { name: "Actions for bob@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Disable…" }));
		await user.click(
			within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Disable" }),
		);
		await waitFor(() => expect(readRows()[0]?.[8]).toBe("Disabled"));
		expect(await screen.findByText("bob@example.com is disabled.")).toBeVisible();

		await user.click(screen.getByRole("button", { name: "Actions for bob@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Enable…" }));
		await user.click(
			within(await screen.findByRole("alertdialog", { name: "Enable this person?" })).getByRole(
				"button",
				{ name: "Enable" },
			),
		);
		await waitFor(() => expect(readRows()[0]?.[8]).toBe("Active"));
		expect(server.readActions()).toEqual(["disable bob@example.com", "enable bob@example.com"]);
	});

	it("deletes an account after asking", async () => {
		const server = startFakePeopleServer({
			people: [
				createTestPerson({ email: "bob@example.com" }),
				createTestPerson({ email: "carol@example.com" }),
			],
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/people" });
		await findTable();

		await user.click(screen.getByRole("button", { name: "Actions for bob@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Delete account…" }));
		const dialog = await screen.findByRole("alertdialog", { name: "Delete this account?" });
		expect(dialog).toHaveTextContent("This action cannot be undone.");
		await user.click(within(dialog).getByRole("button", { name: "Delete account" }));

		await waitFor(() => expect(readEmails()).toEqual(["carol@example.com"]));
		expect(server.readActions()).toEqual(["delete bob@example.com"]);
	});

	it("sets a person's quotas in a dialog, and restores the defaults", async () => {
		const server = startFakePeopleServer({
			people: [createTestPerson({ email: "bob@example.com" })],
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/people" });
		await findTable();

		await user.click(screen.getByRole("button", { name: "Actions for bob@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Quotas…" }));
		const dialog = await screen.findByRole("dialog", { name: "Quotas" });
		expect(within(dialog).getByText("Empty: the default, 3.")).toBeVisible();
		await user.type(
			within(dialog).getByRole("textbox", { name: "Active generations at once" }),
			"0",
		);
		await user.click(within(dialog).getByRole("button", { name: "Save quotas" }));
		expect(within(dialog).getByRole("alert")).toHaveTextContent("a whole number from 1 to 1000");
		expect(server.readActions()).toEqual([]);

		await user.clear(within(dialog).getByRole("textbox", { name: "Active generations at once" }));
		await user.type(
			within(dialog).getByRole("textbox", { name: "Active generations at once" }),
			"1",
		);
		await user.type(within(dialog).getByRole("textbox", { name: "Generations per day" }), "20");
		await user.click(within(dialog).getByRole("button", { name: "Save quotas" }));
		await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
		await waitFor(() =>
			expect(readRows()[0]?.[0]).toBe("bob@example.comQuota: 1 at once, 20 a day"),
		);

		await user.click(screen.getByRole("button", { name: "Actions for bob@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Quotas…" }));
		await user.click(
			within(await screen.findByRole("dialog")).getByRole("button", { name: "Restore defaults" }),
		);
		await waitFor(() => expect(readRows()[0]?.[0]).toBe("bob@example.com"));
		expect(server.readActions()).toEqual([
			'quota bob@example.com {"maxActive":1,"daily":20}',
			'quota bob@example.com {"maxActive":null,"daily":null}',
		]);
	});

	it("offers the administrator's own account no Disable or Delete", async () => {
		startFakePeopleServer({
			people: [createTestPerson({ email: "admin@example.com", isAdmin: true })],
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/people" });
		await findTable();

		await user.click(screen.getByRole("button", { name: "Actions for admin@example.com" }));
		expect(await screen.findByRole("menuitem", { name: "Quotas…" })).toBeVisible();
		expect(screen.queryByRole("menuitem", { name: "Disable…" })).not.toBeInTheDocument();
		expect(screen.queryByRole("menuitem", { name: "Delete account…" })).not.toBeInTheDocument();
	});

	it("says when the list failed to load, and tries again", async () => {
		const server = startFakePeopleServer({
			people: [createTestPerson({ email: "bob@example.com" })],
			failure: "SERVICE_UNAVAILABLE",
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/people" });
		const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
		expect(alert).toHaveTextContent("Failed to load the people. Please try again.");
		server.setFailure(undefined);
		await user.click(within(alert).getByRole("button", { name: "Try Again" }));
		await findTable();
		expect(readEmails()).toEqual(["bob@example.com"]);
	});

	it("is reached from the administrator's menu and the audit log, and only by the administrator", async () => {
		startFakePeopleServer({ people: [createTestPerson({ email: "bob@example.com" })] });
		startFakeAuditLogServer({ entries: [] });
		const { user, readLocation } = openAs({ isAdmin: true, path: "/admin/audit-log" });

		await user.click(await screen.findByRole("link", { name: "People" }, { timeout: 10_000 }));
		expect(await screen.findByRole("heading", { level: 1, name: "People" })).toBeVisible();
		expect(readLocation()).toBe("/admin/people");

		await user.click(screen.getByRole("link", { name: "Audit log" }));
		await screen.findByRole("heading", { level: 1, name: "Audit log" });
		await user.click(screen.getByRole("button", { name: "Account menu" }));
		await user.click(await screen.findByRole("menuitem", { name: "People" }));
		expect(await screen.findByRole("heading", { level: 1, name: "People" })).toBeVisible();
	});

	it("sends anyone else home, and their menu has no People entry", async () => {
		startFakePeopleServer({ people: [createTestPerson()] });
		const { user, readLocation } = openAs({ isAdmin: false, path: "/admin/people" });

		await waitFor(() => expect(readLocation()).toBe("/"));
		await user.click(await screen.findByRole("button", { name: "Account menu" }));
		await screen.findByRole("menuitem", { name: "Sign Out" });
		expect(screen.queryByRole("menuitem", { name: "People" })).not.toBeInTheDocument();
	});
});
