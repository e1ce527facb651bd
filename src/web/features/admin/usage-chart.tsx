// The one module that imports the chart library (Chart.js), loaded only by the usage screen, on
// demand: its own chunk, never the first page's (docs/decisions/005-first-load-budget.md).
import {
	BarController,
	BarElement,
	CategoryScale,
	Chart,
	type ChartConfiguration,
	Legend,
	LinearScale,
	LineController,
	LineElement,
	PointElement,
	Tooltip,
} from "chart.js";
import { useEffect, useRef } from "react";
import type { UsageChartSpec } from "./usage-sections";

// Only the parts these charts draw: the rest of the library stays out of the chunk.
Chart.register(
	BarController,
	BarElement,
	CategoryScale,
	LinearScale,
	LineController,
	LineElement,
	PointElement,
	Legend,
	Tooltip,
);

// Distinguishable side by side, and each at least 3:1 (WCAG's graphics contrast) on its theme's
// surface: white, and the dark theme's (styles.css).
const SERIES_COLORS = {
	light: ["#6d28d9", "#0e7490", "#b45309", "#be123c", "#15803d", "#1d4ed8", "#a21caf", "#4d7c0f"],
	dark: ["#a78bfa", "#22d3ee", "#fbbf24", "#fb7185", "#4ade80", "#60a5fa", "#e879f9", "#a3e635"],
};

type ChartColors = { series: readonly string[]; axisText: string; grid: string };

/** The theme's colours as the page has them now: a canvas cannot read CSS variables itself. */
function readChartColors(): ChartColors {
	const style = getComputedStyle(document.documentElement);
	return {
		series: SERIES_COLORS[style.colorScheme === "dark" ? "dark" : "light"],
		axisText: style.getPropertyValue("--color-slate-600").trim(),
		grid: style.getPropertyValue("--color-slate-200").trim(),
	};
}

function buildConfig(
	spec: UsageChartSpec,
	colors: ChartColors,
): ChartConfiguration<"bar" | "line"> {
	const valueAxis = spec.isHorizontal ? "x" : "y";
	const categoryAxis = spec.isHorizontal ? "y" : "x";
	const axisTitle = (text: string) => ({ display: true, text, color: colors.axisText });
	return {
		type: "bar",
		data: {
			labels: spec.labels,
			datasets: spec.series.map((series, index) => {
				const color = colors.series[index % colors.series.length];
				return series.isLine
					? {
							type: "line" as const,
							label: series.label,
							data: series.data,
							borderColor: color,
							backgroundColor: color,
							yAxisID: "line",
							pointRadius: 2,
						}
					: {
							type: "bar" as const,
							label: series.label,
							data: series.data,
							backgroundColor: color,
						};
			}),
		},
		options: {
			indexAxis: spec.isHorizontal ? "y" : "x",
			responsive: true,
			maintainAspectRatio: false,
			// Drawn once per answer; the table beside it carries the numbers.
			animation: false,
			plugins: {
				legend: { display: spec.series.length > 1, labels: { color: colors.axisText } },
			},
			scales: {
				[categoryAxis]: {
					stacked: spec.isStacked ?? false,
					ticks: { color: colors.axisText },
					grid: { display: false },
				},
				[valueAxis]: {
					stacked: spec.isStacked ?? false,
					beginAtZero: true,
					title: axisTitle(spec.valueTitle),
					ticks: { color: colors.axisText },
					grid: { color: colors.grid },
				},
				...(spec.lineTitle
					? {
							line: {
								position: "right" as const,
								beginAtZero: true,
								title: axisTitle(spec.lineTitle),
								ticks: { color: colors.axisText },
								grid: { display: false },
							},
						}
					: {}),
			},
		},
	};
}

/**
 * One chart of the usage screen, drawn on a canvas. An image to assistive technology, named by
 * `label`; its numbers are in the table that follows it.
 */
export function UsageChart({ spec, label }: { spec: UsageChartSpec; label: string }) {
	const canvasRef = useRef<HTMLCanvasElement>(null);
	useEffect(() => {
		// Without a 2D context (a browser without canvas) the table alone carries the numbers.
		const context = canvasRef.current?.getContext("2d");
		if (!context) return;
		let chart = new Chart(context, buildConfig(spec, readChartColors()));
		// Drawn again in the other theme's colours when the theme changes (data-theme on <html>).
		const themeChange = new MutationObserver(() => {
			chart.destroy();
			chart = new Chart(context, buildConfig(spec, readChartColors()));
		});
		themeChange.observe(document.documentElement, { attributeFilter: ["data-theme"] });
		return () => {
			themeChange.disconnect();
			chart.destroy();
		};
	}, [spec]);
	return (
		<div className="relative h-72 w-full">
			<canvas ref={canvasRef} role="img" aria-label={label} />
		</div>
	);
}
