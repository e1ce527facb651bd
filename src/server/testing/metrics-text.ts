/** One sample of Prometheus's text format: `name{label="value",...} number`. */
type Sample = { name: string; labels: Record<string, string>; value: number };

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of a /metrics answer; comments (# HELP, # TYPE) are left out. */
export function parseMetricsText(text: string): Sample[] {
	return text.split("\n").flatMap((line) => {
		const match = SAMPLE_LINE.exec(line);
		if (!match?.[1] || !match[3]) return [];
		const labels: Record<string, string> = {};
		for (const [, name, value] of (match[2] ?? "").matchAll(LABEL_PAIR)) {
			if (name !== undefined && value !== undefined) labels[name] = value;
		}
		return [{ name: match[1], labels, value: Number(match[3]) }];
	});
}

/**
 * The value of the sample with this name whose labels include `labels` (others may be there too),
 * or undefined when there is none. Two matches are a mistake of the test, and throw.
 */
export function readSample(
	text: string,
	name: string,
	labels: Record<string, string> = {},
): number | undefined {
	const matches = parseMetricsText(text).filter(
		(sample) =>
			sample.name === name &&
			Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
	);
	if (matches.length > 1) throw new Error(`${matches.length} samples of ${name} match`);
	return matches[0]?.value;
}
