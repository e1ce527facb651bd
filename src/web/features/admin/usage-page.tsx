import { useQuery } from "@tanstack/react-query";
import { ChartColumn, Download } from "lucide-react";
import { lazy, type ReactNode, Suspense, useMemo } from "react";
import {
	FAILURE_REASONS,
	USAGE_DAYS,
	type UsageReport,
} from "../../../shared/admin/usage-responses";
import {
	adminNavUsage,
	adminUsageChartLabel,
	adminUsageDownloadCsv,
	adminUsageDownloadCsvOf,
	adminUsageEmpty,
	adminUsageLastDays,
	adminUsageLoadFailed,
	adminUsageLoading,
	adminUsageRange,
	adminUsageReasonsMeaning,
	adminUsageShowTable,
} from "../../../shared/i18n/messages";
import { getButtonClassName } from "../../components/basics/button";
import { DataTable, NUMERIC_CELL_CLASS_NAME } from "../../components/basics/data-table";
import { QueryStatus } from "../../components/basics/query-status";
import { Spinner } from "../../components/basics/spinner";
import { fetchUsageReport } from "../../lib/account/admin-requests";
import { formatCalendarDay } from "../../lib/ui/date-format";
import { AdminPageFrame } from "./admin-page-frame";
import { buildUsageSections, isUsageEmpty, toCsv, type UsageSection } from "./usage-sections";

const FAILURE_REASON_ENTRIES = Object.entries(FAILURE_REASONS);

// The chart library loads with this screen's charts only, after the tables are on the screen.
const UsageChart = lazy(async () => ({ default: (await import("./usage-chart")).UsageChart }));

/** The browser's time zone: the report's days are the administrator's own. */
function readTimeZone(): string {
	return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

function useUsageReport() {
	const timeZone = readTimeZone();
	return useQuery({
		queryKey: ["admin", "usage", timeZone],
		queryFn: ({ signal }) => fetchUsageReport({ timeZone, signal }),
		// Generations finish all the time: show the latest whenever the screen opens.
		staleTime: 0,
	});
}

/** A CSV file of the section's numbers, made in the browser from the table's own rows. */
function csvHref(section: UsageSection): string {
	return `data:text/csv;charset=utf-8,${encodeURIComponent(toCsv(section))}`;
}

function SectionTable({ section }: { section: UsageSection }) {
	return (
		<div className="overflow-x-auto">
			<DataTable
				className="mt-3 text-sm"
				caption={section.title}
				head={section.columns.map((column) => (
					<th
						key={column.label}
						scope="col"
						className={`py-2 pr-4 ${column.isNumeric ? "text-right" : ""}`}
					>
						{column.label}
					</th>
				))}
			>
				{section.rows.map((row) => (
					<tr key={row.slice(0, 2).join(" ")}>
						{section.columns.map((column, index) => {
							const value = row[index] ?? "";
							const text = column.format ? column.format(value) : String(value);
							return index === 0 ? (
								<th key={column.label} scope="row" className="py-2 pr-4 font-normal text-slate-900">
									{text}
								</th>
							) : (
								<td
									key={column.label}
									className={`py-2 pr-4 text-slate-900 ${column.isNumeric ? NUMERIC_CELL_CLASS_NAME : "break-all"}`}
								>
									{text}
								</td>
							);
						})}
					</tr>
				))}
			</DataTable>
		</div>
	);
}

function ChartPlaceholder() {
	return (
		<div className="flex h-72 items-center justify-center text-accent-600">
			<Spinner size="md" />
		</div>
	);
}

function UsageSectionCard({
	section,
	fileDay,
	children,
}: {
	section: UsageSection;
	fileDay: string;
	children?: ReactNode;
}) {
	const headingId = `usage-${section.id}`;
	return (
		<section
			aria-labelledby={headingId}
			className="rounded-2xl bg-white px-4 py-5 shadow-card ring-1 ring-slate-200/80 sm:px-6"
		>
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div>
					<h2 id={headingId} className="text-lg font-semibold text-slate-900">
						{section.title}
					</h2>
					<p className="mt-1 text-sm text-slate-600">{section.description}</p>
				</div>
				{section.isEmpty ? null : (
					<a
						href={csvHref(section)}
						download={`atelier-${section.id}-${fileDay}.csv`}
						aria-label={adminUsageDownloadCsvOf({ title: section.title })}
						className={getButtonClassName({ variant: "secondary", size: "sm" })}
					>
						<Download aria-hidden="true" className="size-4" />
						{adminUsageDownloadCsv()}
					</a>
				)}
			</div>
			{section.isEmpty ? (
				<p className="mt-4 rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
					{section.emptyMessage}
				</p>
			) : (
				<>
					<div className="mt-4">
						<Suspense fallback={<ChartPlaceholder />}>
							<UsageChart
								spec={section.chart}
								label={adminUsageChartLabel({ title: section.title })}
							/>
						</Suspense>
					</div>
					<details className="mt-3">
						<summary className="cursor-pointer text-sm font-medium text-accent-700">
							{adminUsageShowTable()}
							<span className="sr-only">: {section.title}</span>
						</summary>
						<SectionTable section={section} />
					</details>
				</>
			)}
			{section.notes.length > 0 ? (
				<ul className="mt-3 space-y-1 text-sm text-slate-600">
					{section.notes.map((note) => (
						<li key={note}>{note}</li>
					))}
				</ul>
			) : null}
			{children}
		</section>
	);
}

function FailureReasonsList() {
	return (
		<details className="mt-3">
			<summary className="cursor-pointer text-sm font-medium text-accent-700">
				{adminUsageReasonsMeaning()}
			</summary>
			<dl className="mt-2 space-y-2 text-sm">
				{FAILURE_REASON_ENTRIES.map(([reason, { label, meaning }]) => (
					<div key={reason}>
						<dt className="font-medium text-slate-900">{label()}</dt>
						<dd className="text-slate-600">{meaning()}</dd>
					</div>
				))}
			</dl>
		</details>
	);
}

function UsageReportView({ report }: { report: UsageReport }) {
	const sections = useMemo(() => buildUsageSections(report), [report]);
	const fileDay = report.days.at(-1) ?? "report";
	if (isUsageEmpty(report)) {
		return (
			<p className="rounded-2xl border border-dashed border-slate-300 bg-white/80 px-6 py-12 text-center text-sm text-slate-600">
				{adminUsageEmpty({ days: USAGE_DAYS })}
			</p>
		);
	}
	return (
		<div className="space-y-6">
			{sections.map((section) => (
				<UsageSectionCard key={section.id} section={section} fileDay={fileDay}>
					{section.id === "failures" ? <FailureReasonsList /> : null}
				</UsageSectionCard>
			))}
		</div>
	);
}

/**
 * The administrator's usage report: the last thirty days of generations by model, failures by
 * reason, time to complete, storage, estimated spend and the ten biggest spenders. Each chart has
 * its numbers as a table and a CSV download.
 */
export function UsagePage() {
	const usage = useUsageReport();
	const report = usage.data;

	let content: ReactNode;
	if (!report) {
		content = (
			<QueryStatus
				query={usage}
				loadingLabel={adminUsageLoading()}
				failureMessage={adminUsageLoadFailed()}
			/>
		);
	} else {
		content = <UsageReportView report={report} />;
	}

	const firstDay = report?.days[0];
	const lastDay = report?.days.at(-1);
	return (
		<AdminPageFrame
			hasHistoryLink
			icon={<ChartColumn aria-hidden="true" className="size-7 text-accent-600" />}
			title={adminNavUsage()}
			description={
				report && firstDay && lastDay
					? adminUsageRange({
							days: USAGE_DAYS,
							first: formatCalendarDay(firstDay),
							last: formatCalendarDay(lastDay),
							timeZone: report.timeZone,
						})
					: adminUsageLastDays({ days: USAGE_DAYS })
			}
		>
			{content}
		</AdminPageFrame>
	);
}
