import { describe, expect, it, onTestFinished } from "vitest";
import { parseEnv } from "../../config/env";
import { createProviderFromEnv } from "../../providers/registry/provider-registry";
import { checkUntilDone, expectCompleted, startTestJob } from "../provider-kit";
import { FAKE_VENDORS, parseFakeArgs, startFakeForVendor } from "./fake-runner";

describe("fake runner", () => {
	it("reads the vendor, port, latency and planned failures", () => {
		expect(
			parseFakeArgs([
				"replicate",
				"--port",
				"0",
				"--latency-ms",
				"500",
				"--fail",
				"create:rate-limited:2",
				"--fail",
				"get:hang",
			]),
		).toEqual({
			vendor: "replicate",
			port: 0,
			latencyMs: 500,
			failures: [
				{ endpoint: "create", kind: "rate-limited", times: 2 },
				{ endpoint: "get", kind: "hang", times: undefined },
			],
		});
		expect(parseFakeArgs(["fal"])).toMatchObject({ vendor: "fal", port: 4405 });
	});

	it.each([
		[["midjourney"], /Unknown vendor "midjourney"/],
		[
			["openai", "--fail", "generate:explode"],
			/--fail generate:explode: expected[\s\S]*kinds: moderation/,
		],
		[["comfyui", "--fail", "render:hang"], /--fail render:hang/],
		[["http", "--fail", "start:failed"], /start: server-error, rejected/],
		[["fal", "--port", "seventy"], /Cannot read --port seventy/],
	])("explains what is wrong with %j", (argv, message) => {
		const parsed = parseFakeArgs(argv);
		expect("error" in parsed && parsed.error).toMatch(message);
	});

	it.each(FAKE_VENDORS)(
		"starts the %s fake with variables that make a working Atelier provider",
		async (vendor) => {
			const fake = await startFakeForVendor({ vendor, port: 0, latencyMs: 0, failures: [] });
			onTestFinished(() => fake.stop());
			const parsed = parseEnv(fake.env);
			if (!parsed.ok) throw new Error(parsed.problems.join("; "));
			const provider = createProviderFromEnv(parsed.env);
			expect(provider.name).toBe(vendor);
			const images = expectCompleted(await checkUntilDone(provider, await startTestJob(provider)));
			expect(images).toHaveLength(4);
			const assignments = Object.entries(fake.env).map(([name, value]) => `${name}=${value}`);
			expect(fake.lines).toContain(`  ${assignments.join(" ")} npm start`);
		},
	);

	it("plans the failures it was given", async () => {
		const fake = await startFakeForVendor({
			vendor: "openai",
			port: 0,
			latencyMs: 0,
			failures: [{ endpoint: "generate", kind: "moderation", times: 1 }],
		});
		onTestFinished(() => fake.stop());
		const parsed = parseEnv(fake.env);
		if (!parsed.ok) throw new Error(parsed.problems.join("; "));
		const provider = createProviderFromEnv(parsed.env);
		await expect(checkUntilDone(provider, await startTestJob(provider))).rejects.toMatchObject({
			userMessage: "The provider refused this prompt",
		});
		expect(fake.lines).toContain("Planned failures: generate:moderation x1");
	});
});
