import { describe, expect, it } from "vitest";
import {
	createDateGrouper,
	formatGroupDate,
	groupByCreationDate,
	UNKNOWN_DATE_LABEL,
} from "./date-groups";

function createItem(id: string, createdAt: string) {
	return { id, created_at: createdAt };
}

function summarizeGroups(
	groups: ReturnType<typeof groupByCreationDate<{ id: string; created_at: string }>>,
) {
	return groups.map((group) => [group.label, group.items.map((item) => item.id)]);
}

describe("formatGroupDate", () => {
	it("writes the day in en-US form", () => {
		expect(formatGroupDate("2025-01-05T12:00:00.000Z", { timeZone: "UTC" })).toBe("Jan 5, 2025");
		expect(formatGroupDate(new Date("2024-12-31T23:59:59.999Z"), { timeZone: "UTC" })).toBe(
			"Dec 31, 2024",
		);
	});

	it("counts the day in the given time zone", () => {
		const lateEvening = "2025-01-06T03:30:00.000Z";
		expect(formatGroupDate(lateEvening, { timeZone: "UTC" })).toBe("Jan 6, 2025");
		expect(formatGroupDate(lateEvening, { timeZone: "America/New_York" })).toBe("Jan 5, 2025");
		expect(formatGroupDate(lateEvening, { timeZone: "Asia/Tokyo" })).toBe("Jan 6, 2025");
	});

	it("names an unreadable date instead of throwing", () => {
		expect(formatGroupDate("not a date")).toBe(UNKNOWN_DATE_LABEL);
	});
});

describe("groupByCreationDate", () => {
	it("groups newest first by calendar day, keeping the newest item first in each day", () => {
		const items = [
			createItem("c", "2025-01-06T09:00:00.000Z"),
			createItem("b", "2025-01-05T18:00:00.000Z"),
			createItem("a", "2025-01-05T08:00:00.000Z"),
			createItem("old", "2024-11-30T23:00:00.000Z"),
		];

		expect(summarizeGroups(groupByCreationDate(items, { timeZone: "UTC" }))).toEqual([
			["Jan 6, 2025", ["c"]],
			["Jan 5, 2025", ["b", "a"]],
			["Nov 30, 2024", ["old"]],
		]);
	});

	it("puts items on the day of the viewer's time zone", () => {
		const items = [
			createItem("morning-utc", "2025-01-06T03:00:00.000Z"),
			createItem("evening-utc", "2025-01-05T20:00:00.000Z"),
		];

		expect(summarizeGroups(groupByCreationDate(items, { timeZone: "UTC" }))).toEqual([
			["Jan 6, 2025", ["morning-utc"]],
			["Jan 5, 2025", ["evening-utc"]],
		]);
		expect(
			summarizeGroups(groupByCreationDate(items, { timeZone: "America/Los_Angeles" })),
		).toEqual([["Jan 5, 2025", ["morning-utc", "evening-utc"]]]);
	});

	it("orders input that is not newest first, and keeps ties in their given order", () => {
		const items = [
			createItem("a", "2025-01-05T08:00:00.000Z"),
			createItem("old", "2024-11-30T23:00:00.000Z"),
			createItem("c", "2025-01-06T09:00:00.000Z"),
			createItem("tie-1", "2025-01-05T10:00:00.000Z"),
			createItem("tie-2", "2025-01-05T10:00:00.000Z"),
		];

		expect(summarizeGroups(groupByCreationDate(items, { timeZone: "UTC" }))).toEqual([
			["Jan 6, 2025", ["c"]],
			["Jan 5, 2025", ["tie-1", "tie-2", "a"]],
			["Nov 30, 2024", ["old"]],
		]);
	});

	it("keeps items with an unreadable date, in a last group of their own", () => {
		const items = [
			createItem("broken", "yesterday-ish"),
			createItem("a", "2025-01-05T08:00:00.000Z"),
		];

		expect(summarizeGroups(groupByCreationDate(items, { timeZone: "UTC" }))).toEqual([
			["Jan 5, 2025", ["a"]],
			[UNKNOWN_DATE_LABEL, ["broken"]],
		]);
	});

	it("returns no groups for no items, and keeps the items themselves", () => {
		expect(groupByCreationDate([], { timeZone: "UTC" })).toEqual([]);
		const item = createItem("a", "2025-01-05T08:00:00.000Z");
		expect(groupByCreationDate([item], { timeZone: "UTC" })[0]?.items[0]).toBe(item);
	});

	it("gives the same groups when one grouper is reused as pages arrive", () => {
		const group = createDateGrouper({ timeZone: "UTC" });
		const firstPage = [
			createItem("c", "2025-01-06T09:00:00.000Z"),
			createItem("b", "2025-01-05T18:00:00.000Z"),
		];
		const secondPage = [
			createItem("a", "2025-01-05T08:00:00.000Z"),
			createItem("old", "2024-11-30T23:00:00.000Z"),
		];

		expect(summarizeGroups(group(firstPage))).toEqual([
			["Jan 6, 2025", ["c"]],
			["Jan 5, 2025", ["b"]],
		]);
		expect(summarizeGroups(group([...firstPage, ...secondPage]))).toEqual([
			["Jan 6, 2025", ["c"]],
			["Jan 5, 2025", ["b", "a"]],
			["Nov 30, 2024", ["old"]],
		]);
	});
});
