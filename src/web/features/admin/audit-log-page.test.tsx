import { screen, waitFor, within } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import { openAs, readRows } from "../../testing/admin-screen";
import {
	createTestAuditEntry,
	startFakeAuditLogServer,
} from "../../testing/fakes/fake-audit-log-server";
import { startFakeGenerationsApi } from "../../testing/fakes/fake-generations-api";

function readAuditRows() {
	return readRows(
		screen.getByRole("table", {
			name: "Deletions of generations and actions on accounts, newest first",
		}),
	);
}

describe("the audit log", () => {
	afterEach(() => {
		toast.dismiss();
	});

	it("lists the deletions, newest first: when, who, whose and what", async () => {
		const newest = createTestAuditEntry({
			actor_email: "admin@example.com",
			owner_email: "bob@example.com",
			prompt: "Bob's red bicycle",
			created_at: "2025-01-06T15:30:00.000Z",
		});
		const older = createTestAuditEntry({
			actor_email: "alice@example.com",
			owner_email: "alice@example.com",
			prompt: "Alice's old map",
			created_at: "2025-01-05T09:05:00.000Z",
		});
		startFakeAuditLogServer({ entries: [older, newest] });
		openAs({ isAdmin: true, path: "/admin/audit-log" });

		expect(
			await screen.findByRole("heading", { level: 1, name: "Audit log" }, { timeout: 10_000 }),
		).toBeVisible();
		await screen.findByRole("table");
		const rows = readAuditRows();
		expect(rows).toHaveLength(2);
		expect(rows[0]?.[0]).toMatch(/^Jan 6, 2025, \d{1,2}:\d{2}\s?[AP]M$/);
		expect(rows[0]?.slice(1, 3)).toEqual(["admin@example.com", "bob@example.com"]);
		expect(rows[0]?.[3]).toBe(`Deleted “Bob's red bicycle”${newest.generation_id}`);
		expect(rows[1]?.slice(1, 3)).toEqual(["alice@example.com", "alice@example.com"]);
		expect(screen.getByRole("link", { name: "All Generations" })).toHaveAttribute(
			"href",
			"/generations",
		);
	});

	it("shows what the administrator did to people's accounts, with the details", async () => {
		const quota = createTestAuditEntry({
			action: "set-quota",
			owner_email: "carol@example.com",
			generation_id: null,
			prompt: null,
			details: "Active generations: 2; daily generations: default",
			created_at: "2025-01-06T15:30:00.000Z",
		});
		const removed = createTestAuditEntry({
			action: "delete-account",
			owner_email: "dave@example.com",
			generation_id: null,
			prompt: null,
			details: null,
			created_at: "2025-01-05T15:30:00.000Z",
		});
		startFakeAuditLogServer({ entries: [quota, removed] });
		openAs({ isAdmin: true, path: "/admin/audit-log" });
		await screen.findByRole("table", undefined, { timeout: 10_000 });

		const rows = readAuditRows();
		expect(rows[0]?.slice(2)).toEqual([
			"carol@example.com",
			"Set the quotasActive generations: 2; daily generations: default",
		]);
		expect(rows[1]?.slice(2)).toEqual(["dave@example.com", "Deleted the account"]);
		expect(screen.getByRole("link", { name: "People" })).toHaveAttribute("href", "/admin/people");
	});

	it("loads older deletions a page at a time", async () => {
		const entries = Array.from({ length: 55 }, (_, index) =>
			createTestAuditEntry({
				prompt: `Deleted number ${index + 1}`,
				created_at: new Date(Date.UTC(2025, 0, 5, 12, 0, 0) - index * 60_000).toISOString(),
			}),
		);
		const server = startFakeAuditLogServer({ entries });
		const { user } = openAs({ isAdmin: true, path: "/admin/audit-log" });
		await screen.findByRole("table", undefined, { timeout: 10_000 });
		expect(readAuditRows()).toHaveLength(50);

		await user.click(screen.getByRole("button", { name: "Load more" }));

		await waitFor(() => expect(readAuditRows()).toHaveLength(55));
		expect(server.readRequests().at(-1)?.get("cursor")).toBe("after-50");
		expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
	});

	it("says when nothing was deleted yet, and when the log failed to load", async () => {
		const server = startFakeAuditLogServer({ failure: "SERVICE_UNAVAILABLE" });
		const { user } = openAs({ isAdmin: true, path: "/admin/audit-log" });

		const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
		expect(alert).toHaveTextContent("Failed to load the audit log. Please try again.");
		server.setFailure(undefined);
		await user.click(within(alert).getByRole("button", { name: "Try Again" }));

		expect(await screen.findByText("No actions recorded yet.")).toBeVisible();
	});

	it("is reached from the administrator's menu and the history, and only by the administrator", async () => {
		startFakeAuditLogServer({ entries: [createTestAuditEntry()] });
		startFakeGenerationsApi({ generations: [] });
		const { user, readLocation } = openAs({ isAdmin: true, path: "/generations" });

		await user.click(await screen.findByRole("link", { name: "Audit log" }, { timeout: 10_000 }));
		expect(await screen.findByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
		expect(readLocation()).toBe("/admin/audit-log");

		await user.click(screen.getByRole("link", { name: "All Generations" }));
		await screen.findByRole("heading", { level: 1, name: "All Generations" });
		await user.click(screen.getByRole("button", { name: "Account menu" }));
		await user.click(await screen.findByRole("menuitem", { name: "Audit log" }));
		expect(await screen.findByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
	});

	it("sends anyone else home, and their menu has no audit log", async () => {
		startFakeAuditLogServer({ entries: [createTestAuditEntry()] });
		const { user, readLocation } = openAs({ isAdmin: false, path: "/admin/audit-log" });

		await waitFor(() => expect(readLocation()).toBe("/"));
		expect(screen.queryByRole("heading", { name: "Audit log" })).not.toBeInTheDocument();
		await user.click(await screen.findByRole("button", { name: "Account menu" }));
		await screen.findByRole("menuitem", { name: "Sign Out" });
		expect(screen.queryByRole("menuitem", { name: "Audit log" })).not.toBeInTheDocument();
	});
});
