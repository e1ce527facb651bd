import { HttpResponse, http } from "msw";
import { USAGE_DAYS, type UsageReport } from "../../../shared/admin/usage-responses";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/core/errors";
import { mswServer } from "../msw-server";

/** The report's thirty days, ending on `lastDay` (`YYYY-MM-DD`), oldest first. */
export function listTestDays(lastDay: string): string[] {
	const end = Date.parse(`${lastDay}T00:00:00Z`);
	return Array.from({ length: USAGE_DAYS }, (_, index) =>
		new Date(end - (USAGE_DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10),
	);
}

/** A usage report with nothing in it, its days ending on Jan 30, 2025; pass what the test is about. */
export function createTestUsageReport(overrides: Partial<UsageReport> = {}): UsageReport {
	const days = listTestDays("2025-01-30");
	return {
		timeZone: "UTC",
		days,
		models: [],
		generationsByDay: [],
		failuresByDay: [],
		completionTimes: [],
		storage: {
			totalImages: 0,
			totalBytes: 0,
			imagesWithoutBytes: 0,
			byDay: days.map((day) => ({ day, images: 0, bytes: 0 })),
		},
		spend: {
			currency: "USD",
			total: 0,
			unpricedImages: 0,
			byDay: days.map((day) => ({ day, amount: 0 })),
		},
		topSpenders: [],
		...overrides,
	};
}

/**
 * Answers `GET /api/admin/usage` the way the server answers the administrator, with `report`;
 * `failure` makes it answer with that error instead.
 */
export function startFakeUsageServer(options: { report?: UsageReport; failure?: ErrorCode } = {}) {
	const state = {
		report: options.report ?? createTestUsageReport(),
		failure: options.failure,
		requests: [] as URLSearchParams[],
	};
	mswServer.use(
		http.get("*/api/admin/usage", ({ request }) => {
			state.requests.push(new URL(request.url).searchParams);
			if (state.failure) {
				return HttpResponse.json(
					{ success: false, error: errorBody(state.failure) },
					{ status: ERRORS[state.failure].status },
				);
			}
			return HttpResponse.json(state.report);
		}),
	);
	return {
		readRequests: () => state.requests,
		setFailure: (code: ErrorCode | undefined) => {
			state.failure = code;
		},
	};
}
