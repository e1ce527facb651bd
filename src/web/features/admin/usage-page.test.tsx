import { screen, waitFor, within } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import type { UsageReport } from "../../../shared/admin/usage-responses";
import { openAs } from "../../testing/admin-screen";
import { startFakeAuditLogServer } from "../../testing/fakes/fake-audit-log-server";
import { createTestUsageReport, startFakeUsageServer } from "../../testing/fakes/fake-usage-server";
import type { renderApp } from "../../testing/render-app";

/** A report of a few busy days at the end of January 2025. */
function createBusyReport(): UsageReport {
	const empty = createTestUsageReport();
	return createTestUsageReport({
		models: [
			{ id: "local", label: "Offline engine" },
			{ id: "painter", label: "Painter, large" },
		],
		generationsByDay: [
			{ day: "2025-01-28", modelId: "painter", completed: 2, failed: 1, total: 3 },
			{ day: "2025-01-28", modelId: "local", completed: 5, failed: 0, total: 5 },
			{ day: "2025-01-30", modelId: "local", completed: 1, failed: 0, total: 2 },
		],
		failuresByDay: [{ day: "2025-01-28", reason: "TIMED_OUT", count: 1 }],
		completionTimes: [
			{ modelId: "local", completed: 6, medianSeconds: 4.25 },
			{ modelId: "painter", completed: 2, medianSeconds: 31 },
		],
		storage: {
			totalImages: 120,
			totalBytes: 52_300_000,
			imagesWithoutBytes: 7,
			byDay: empty.storage.byDay.map((entry) =>
				entry.day === "2025-01-28" ? { ...entry, images: 12, bytes: 1_500_000 } : entry,
			),
		},
		spend: {
			currency: "USD",
			total: 0.32,
			unpricedImages: 21,
			byDay: empty.spend.byDay.map((entry) =>
				entry.day === "2025-01-28" ? { ...entry, amount: 0.32 } : entry,
			),
		},
		topSpenders: [
			{ email: "bob@example.com", images: 6, amount: 0.24 },
			{ email: "=alice@example.com", images: 2, amount: 0.08 },
		],
	});
}

/** Waits until the report is on the screen. */
function waitForReport() {
	return screen.findByRole("region", { name: "Generations per day by model" }, { timeout: 10_000 });
}

/** The rows of a section's table (opened with its "Show as table"), each as its cells' text. */
async function readTable(
	user: ReturnType<typeof renderApp>["user"],
	title: string,
): Promise<string[][]> {
	const section = screen.getByRole("region", { name: title });
	await user.click(within(section).getByText("Show as table"));
	const table = within(section).getByRole("table", { name: title });
	return within(table)
		.getAllByRole("row")
		.map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent ?? ""));
}

/** The CSV a section's download link holds, and the file name it is saved under. */
function readCsv(title: string): { fileName: string | null; text: string } {
	const section = screen.getByRole("region", { name: title });
	const link = within(section).getByRole("link", { name: `Download CSV: ${title}` });
	const href = link.getAttribute("href") ?? "";
	const prefix = "data:text/csv;charset=utf-8,";
	expect(href.startsWith(prefix)).toBe(true);
	return {
		fileName: link.getAttribute("download"),
		text: decodeURIComponent(href.slice(prefix.length)),
	};
}

describe("the usage report", () => {
	afterEach(() => {
		toast.dismiss();
	});

	it("shows generations per day by model as a table and the same numbers as CSV", async () => {
		const server = startFakeUsageServer({ report: createBusyReport() });
		const { user } = openAs({ isAdmin: true, path: "/admin/usage" });

		await waitForReport();
		expect(screen.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
		expect(
			screen.getByText("The last 30 days, Jan 1, 2025 to Jan 30, 2025, by day in UTC."),
		).toBeVisible();
		// The report's days are the browser's own.
		expect(server.readRequests()[0]?.get("timeZone")).toBe(
			Intl.DateTimeFormat().resolvedOptions().timeZone,
		);
		const title = "Generations per day by model";
		// Drawn by the chart library, which loads after the tables.
		expect(
			await within(screen.getByRole("region", { name: title })).findByRole("img", {
				name: `${title}: chart. The table below has its numbers.`,
			}),
		).toBeInTheDocument();
		expect(await readTable(user, title)).toEqual([
			["Day", "Model", "Completed", "Failed", "Total"],
			["Jan 28, 2025", "Offline engine", "5", "0", "5"],
			["Jan 28, 2025", "Painter, large", "2", "1", "3"],
			["Jan 30, 2025", "Offline engine", "1", "0", "2"],
		]);
		expect(readCsv(title)).toEqual({
			fileName: "atelier-generations-2025-01-30.csv",
			text: [
				"Day,Model,Completed,Failed,Total",
				"2025-01-28,Offline engine,5,0,5",
				'2025-01-28,"Painter, large",2,1,3',
				"2025-01-30,Offline engine,1,0,2",
				"",
			].join("\r\n"),
		});
	});

	it("names failures by reason and says what each reason means", async () => {
		startFakeUsageServer({ report: createBusyReport() });
		const { user } = openAs({ isAdmin: true, path: "/admin/usage" });
		await waitForReport();

		const title = "Failures per day by reason";
		expect(await readTable(user, title)).toEqual([
			["Day", "Reason", "Failures"],
			["Jan 28, 2025", "Timed out", "1"],
		]);
		expect(readCsv(title).text).toBe("Day,Reason,Failures\r\n2025-01-28,Timed out,1\r\n");
		const section = screen.getByRole("region", { name: title });
		await user.click(within(section).getByText("What each reason means"));
		expect(within(section).getByText("Credentials or credit")).toBeVisible();
		expect(
			within(section).getByText(
				"The image service did not accept Atelier's credentials, or its account has no credit left.",
			),
		).toBeVisible();
	});

	it("shows time to complete, storage and spend, saying what their numbers leave out", async () => {
		startFakeUsageServer({ report: createBusyReport() });
		const { user } = openAs({ isAdmin: true, path: "/admin/usage" });
		await waitForReport();

		expect(await readTable(user, "Median time to complete per model")).toEqual([
			["Model", "Completed", "Median time to complete (seconds)"],
			["Offline engine", "6", "4.3 s"],
			["Painter, large", "2", "31 s"],
		]);
		expect(readCsv("Median time to complete per model").text).toBe(
			'Model,Completed,Median time to complete (seconds)\r\nOffline engine,6,4.25\r\n"Painter, large",2,31\r\n',
		);

		const storage = await readTable(user, "Images stored and bytes");
		expect(storage).toHaveLength(31);
		expect(storage).toContainEqual(["Jan 28, 2025", "12", "1.5 MB"]);
		expect(storage).toContainEqual(["Jan 29, 2025", "0", "0 bytes"]);
		expect(screen.getByText("Stored now: 120 images, 52.3 MB.")).toBeVisible();
		expect(
			screen.getByText(
				"Partial bytes: 7 images were stored before sizes were recorded; their bytes are not counted.",
			),
		).toBeVisible();
		expect(readCsv("Images stored and bytes").text).toContain("2025-01-28,12,1500000\r\n");

		const spend = await readTable(user, "Estimated spend per day");
		expect(spend).toContainEqual(["Jan 28, 2025", "$0.32"]);
		expect(screen.getByText("Total over the last 30 days: $0.32.")).toBeVisible();
		expect(
			screen.getByText(
				"Not counted: 21 images without a price (their model has none, or they were made before prices were recorded).",
			),
		).toBeVisible();
	});

	it("lists the top spenders, and keeps an address that looks like a formula text in the CSV", async () => {
		startFakeUsageServer({ report: createBusyReport() });
		const { user } = openAs({ isAdmin: true, path: "/admin/usage" });
		await waitForReport();

		expect(await readTable(user, "Top ten spenders")).toEqual([
			["Person", "Images", "Estimated spend (USD)"],
			["bob@example.com", "6", "$0.24"],
			["=alice@example.com", "2", "$0.08"],
		]);
		expect(readCsv("Top ten spenders")).toEqual({
			fileName: "atelier-top-spenders-2025-01-30.csv",
			text: "Person,Images,Estimated spend (USD)\r\nbob@example.com,6,0.24\r\n'=alice@example.com,2,0.08\r\n",
		});
	});

	it("counts each person's Enhance rewrites", async () => {
		startFakeUsageServer({
			report: {
				...createBusyReport(),
				enhance: {
					total: 9,
					byPerson: [
						{ email: "bob@example.com", calls: 7 },
						{ email: "carol@example.com", calls: 2 },
					],
				},
			},
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/usage" });
		await waitForReport();
		expect(await readTable(user, "Enhance")).toEqual([
			["Person", "Rewrites"],
			["bob@example.com", "7"],
			["carol@example.com", "2"],
		]);
		const section = screen.getByRole("region", { name: "Enhance" });
		expect(within(section).getByText(/9 rewrites in all/)).toBeVisible();
	});

	it("says when there is nothing to show, and when a chart has nothing to draw", async () => {
		startFakeUsageServer({ report: createTestUsageReport() });
		openAs({ isAdmin: true, path: "/admin/usage" });
		expect(
			await screen.findByText(
				"No generations in the last 30 days, and no images stored. The charts appear once people generate images.",
				undefined,
				{ timeout: 10_000 },
			),
		).toBeVisible();
		expect(screen.queryByRole("region")).not.toBeInTheDocument();
		expect(screen.queryByRole("link", { name: /Download CSV/ })).not.toBeInTheDocument();
	});

	it("says so per chart when only part of the report has data", async () => {
		const report = createBusyReport();
		startFakeUsageServer({ report: { ...report, failuresByDay: [], topSpenders: [] } });
		openAs({ isAdmin: true, path: "/admin/usage" });
		await waitForReport();

		const failures = screen.getByRole("region", { name: "Failures per day by reason" });
		expect(within(failures).getByText("No failures in the last 30 days.")).toBeVisible();
		expect(within(failures).queryByRole("table")).not.toBeInTheDocument();
		const spenders = screen.getByRole("region", { name: "Top ten spenders" });
		expect(within(spenders).getByText("Nobody spent anything in the last 30 days.")).toBeVisible();
	});

	it("says when the report failed to load, and loads it again", async () => {
		const server = startFakeUsageServer({
			report: createBusyReport(),
			failure: "SERVICE_UNAVAILABLE",
		});
		const { user } = openAs({ isAdmin: true, path: "/admin/usage" });

		const alert = await screen.findByRole("alert", undefined, { timeout: 10_000 });
		expect(alert).toHaveTextContent("Failed to load the usage report. Please try again.");
		server.setFailure(undefined);
		await user.click(within(alert).getByRole("button", { name: "Try Again" }));

		expect(
			await screen.findByRole("region", { name: "Generations per day by model" }),
		).toBeVisible();
	});

	it("is reached from the audit log, and only by the administrator", async () => {
		startFakeAuditLogServer({ entries: [] });
		startFakeUsageServer({ report: createBusyReport() });
		const { user, readLocation } = openAs({ isAdmin: true, path: "/admin/audit-log" });

		const nav = await screen.findByRole(
			"navigation",
			{ name: "Administration" },
			{ timeout: 10_000 },
		);
		await user.click(within(nav).getByRole("link", { name: "Usage" }));
		expect(await screen.findByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
		expect(readLocation()).toBe("/admin/usage");
		expect(
			within(screen.getByRole("navigation", { name: "Administration" })).getByRole("link", {
				name: "Usage",
			}),
		).toHaveAttribute("aria-current", "page");
	});

	it("sends anyone else home", async () => {
		const server = startFakeUsageServer({ report: createBusyReport() });
		const { readLocation } = openAs({ isAdmin: false, path: "/admin/usage" });

		await waitFor(() => expect(readLocation()).toBe("/"));
		expect(screen.queryByRole("heading", { name: "Usage" })).not.toBeInTheDocument();
		expect(server.readRequests()).toHaveLength(0);
	});
});
