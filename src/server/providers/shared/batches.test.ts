import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestInput } from "../../testing/provider-kit";
import type { ProviderJobState } from "../types";
import { createBatchedJobs } from "./batches";
import { defineBatchJobIds } from "./job-id";

/** A vendor whose requests answer what the test set for each, one image per request. */
function createScriptedVendor() {
	const states = new Map<string, ProviderJobState>();
	let submitted = 0;
	const jobs = createBatchedJobs<string>({
		imagesPerRequest: 1,
		async submit() {
			submitted += 1;
			return `request-${submitted}`;
		},
		check: async (ref) => states.get(ref) ?? { status: "running" },
		cancel: async () => {},
		jobIds: defineBatchJobIds("Scripted", "requests", z.string()),
	});
	return { jobs, states };
}

const IMAGE = { kind: "url", url: "https://cdn.example.com/1.png" } as const;

describe("a generation made of several vendor requests", () => {
	it("is starting while its requests start, running once one is at work or done", async () => {
		const { jobs, states } = createScriptedVendor();
		const input = createTestInput({ count: 2 });
		const job = { ...(await jobs.start(input)), input };

		states.set("request-1", { status: "running", stage: "starting" });
		states.set("request-2", { status: "running", stage: "starting" });
		expect(await jobs.check(job)).toEqual({ status: "running", stage: "starting" });

		// The one at work speaks for the set, whichever request it is.
		states.set("request-2", { status: "running", stage: "running", step: 3, steps: 4 });
		expect(await jobs.check(job)).toEqual({
			status: "running",
			stage: "running",
			step: 3,
			steps: 4,
		});

		// One done and the other still starting: the set has been at work, half of it done.
		states.set("request-1", { status: "completed", images: [IMAGE] });
		states.set("request-2", { status: "running", stage: "starting" });
		expect(await jobs.check(job)).toEqual({ status: "running", stage: "running", progress: 50 });
	});

	it("is queued at the nearest place while none of its requests has left the provider's queue", async () => {
		const { jobs, states } = createScriptedVendor();
		const input = createTestInput({ count: 2 });
		const job = { ...(await jobs.start(input)), input };
		states.set("request-1", { status: "running", queuePosition: 4 });
		states.set("request-2", { status: "running", queuePosition: 5 });
		expect(await jobs.check(job)).toEqual({ status: "running", queuePosition: 4 });
	});
});
