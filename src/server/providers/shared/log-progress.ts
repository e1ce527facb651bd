import type { ProviderProgress } from "../types";

// A tqdm bar, as diffusers print it: " 45%|████▌     | 9/20 [00:03<00:04,  2.60it/s]".
const TQDM_PATTERN = /^\s*(\d{1,3})%\s*\|[^|]*\|\s*(\d+)\/(\d+)/;
// A percent on its own at the start of a tqdm-like line: "45%|".
const PERCENT_PATTERN = /^\s*(\d{1,3})%\s*\|/;
// A step count said in words: "step 12/30", "Step 12 of 30".
const STEP_PATTERN = /\bstep\s*(\d+)\s*(?:\/|of)\s*(\d+)/i;

/**
 * What a model's free-text logs say of its progress, read from the last line that says anything
 * (the newest): a tqdm bar gives the percent and step of steps, "45%|" the percent alone, and
 * "step 12/30" or "step 12 of 30" the step (and so the percent). The percent stops at 99: a model
 * may still decode or upload after its last step. Undefined when no line says anything.
 */
export function readLogProgress(lines: readonly string[]): ProviderProgress | undefined {
	for (const line of [...lines].reverse()) {
		const tqdm = TQDM_PATTERN.exec(line);
		if (tqdm) {
			return {
				progress: Math.min(99, Number(tqdm[1])),
				step: Number(tqdm[2]),
				steps: Number(tqdm[3]),
			};
		}
		const percent = PERCENT_PATTERN.exec(line);
		if (percent) return { progress: Math.min(99, Number(percent[1])) };
		const step = STEP_PATTERN.exec(line);
		if (step) {
			const [value, total] = [Number(step[1]), Number(step[2])];
			if (total <= 0 || value > total) continue;
			return { progress: Math.min(99, (value / total) * 100), step: value, steps: total };
		}
	}
	return undefined;
}

/** A text blob of logs (Replicate's `logs`) as lines; tqdm rewrites its line with carriage returns. */
export function splitLogLines(logs: string | null | undefined): string[] {
	return logs ? logs.split(/\r?\n|\r/) : [];
}
