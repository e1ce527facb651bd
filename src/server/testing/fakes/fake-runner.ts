import { FAKE_COMFYUI_ENDPOINTS, FAKE_COMFYUI_FAILURES, startFakeComfyUi } from "./comfyui";
import { FAKE_REFUSED_WORD } from "./fake-server";
import { FAKE_FAL_ENDPOINTS, FAKE_FAL_FAILURES, FAKE_FAL_KEY, startFakeFal } from "./fal";
import { startFakeHttpImageService } from "./http-image-service";
import {
	FAKE_OPENAI_ENDPOINTS,
	FAKE_OPENAI_FAILURES,
	FAKE_OPENAI_KEY,
	startFakeOpenAi,
} from "./openai";
import {
	FAKE_REPLICATE_ENDPOINTS,
	FAKE_REPLICATE_FAILURES,
	FAKE_REPLICATE_TOKEN,
	startFakeReplicate,
} from "./replicate";

export const FAKE_VENDORS = ["http", "comfyui", "replicate", "openai", "fal"] as const;
type FakeVendor = (typeof FAKE_VENDORS)[number];

/** Ports the fakes take by hand unless told otherwise, so a configured .env keeps working. */
const DEFAULT_PORTS: Record<FakeVendor, number> = {
	http: 4401,
	comfyui: 4402,
	replicate: 4403,
	openai: 4404,
	fal: 4405,
};

const NAMES: Record<FakeVendor, string> = {
	http: "start-then-poll image service",
	comfyui: "ComfyUI server",
	replicate: "Replicate API",
	openai: "OpenAI images API",
	fal: "fal.ai queue API",
};

// The http fake takes its failures as modes of its two endpoints, not as planned failures.
const HTTP_FAILURES = {
	start: ["server-error", "rejected", "rate-limited", "bad-json", "no-polling-url", "hang"],
	poll: [
		"failed",
		"error",
		"completed-empty",
		"hang",
		"bad-json",
		"not-object",
		"rate-limited",
		"server-error",
	],
} as const;

type PlannedFailure = { endpoint: string; kind: string; times: number | undefined };

type FakeRunOptions = {
	vendor: FakeVendor;
	port: number;
	/** Time from a job's start until it is done. */
	latencyMs: number;
	failures: PlannedFailure[];
};

type RunningFake = {
	/** What to print: where it listens and how to point Atelier at it. */
	lines: string[];
	env: Record<string, string>;
	stop(): Promise<void>;
};

const USAGE = `Usage: npm run fake:<vendor> -- [--port N] [--latency-ms N] [--fail <endpoint>:<kind>[:times]]...
Vendors: ${FAKE_VENDORS.join(", ")}`;

/** Reads the runner's arguments: the vendor, then options; an error names what is wrong. */
export function parseFakeArgs(argv: readonly string[]): FakeRunOptions | { error: string } {
	const [vendorArg, ...rest] = argv;
	const vendor = FAKE_VENDORS.find((candidate) => candidate === vendorArg);
	if (!vendor) return { error: `Unknown vendor ${JSON.stringify(vendorArg ?? "")}.\n${USAGE}` };
	const options: FakeRunOptions = {
		vendor,
		port: DEFAULT_PORTS[vendor],
		latencyMs: 3_000,
		failures: [],
	};
	for (let index = 0; index < rest.length; index += 2) {
		const flag = rest[index];
		const value = rest[index + 1] ?? "";
		if (flag === "--port" && /^\d+$/.test(value) && Number(value) <= 65_535) {
			options.port = Number(value);
		} else if (flag === "--latency-ms" && /^\d+$/.test(value)) {
			options.latencyMs = Number(value);
		} else if (flag === "--fail") {
			const failure = parseFailure(vendor, value);
			if ("error" in failure) return failure;
			options.failures.push(failure);
		} else {
			return { error: `Cannot read ${flag ?? ""} ${value}.\n${USAGE}` };
		}
	}
	return options;
}

function parseFailure(vendor: FakeVendor, text: string): PlannedFailure | { error: string } {
	const [endpoint = "", kind = "", times] = text.split(":");
	const catalogue = listFailures(vendor);
	const kinds = catalogue.endpoints.includes(endpoint) ? catalogue.kindsFor(endpoint) : [];
	if (!kinds.includes(kind) || (times !== undefined && !/^\d+$/.test(times))) {
		return {
			error: `--fail ${text}: expected <endpoint>:<kind>[:times] for ${vendor}.\n${describeFailures(vendor).join("\n")}`,
		};
	}
	return { endpoint, kind, times: times === undefined ? undefined : Number(times) };
}

function listFailures(vendor: FakeVendor): {
	endpoints: readonly string[];
	kindsFor(endpoint: string): readonly string[];
} {
	const planned = (endpoints: readonly string[], failures: Record<string, string>) => ({
		endpoints,
		kindsFor: () => Object.keys(failures),
	});
	switch (vendor) {
		case "http":
			return {
				endpoints: ["start", "poll"],
				kindsFor: (endpoint) => (endpoint === "start" ? HTTP_FAILURES.start : HTTP_FAILURES.poll),
			};
		case "comfyui":
			return planned(FAKE_COMFYUI_ENDPOINTS, FAKE_COMFYUI_FAILURES);
		case "replicate":
			return planned(FAKE_REPLICATE_ENDPOINTS, FAKE_REPLICATE_FAILURES);
		case "openai":
			return planned(FAKE_OPENAI_ENDPOINTS, FAKE_OPENAI_FAILURES);
		case "fal":
			return planned(FAKE_FAL_ENDPOINTS, FAKE_FAL_FAILURES);
	}
}

function describeFailures(vendor: FakeVendor): string[] {
	const catalogue = listFailures(vendor);
	if (vendor === "http") {
		return catalogue.endpoints.map(
			(endpoint) => `  ${endpoint}: ${catalogue.kindsFor(endpoint).join(", ")}`,
		);
	}
	const [first = ""] = catalogue.endpoints;
	return [
		`  endpoints: ${catalogue.endpoints.join(", ")}`,
		`  kinds: ${catalogue.kindsFor(first).join(", ")}`,
	];
}

/** Starts the vendor's fake on 127.0.0.1 with the options, planned failures included. */
export async function startFakeForVendor(options: FakeRunOptions): Promise<RunningFake> {
	const { vendor, port, latencyMs } = options;
	const queued = Math.round(latencyMs / 3);
	const running = latencyMs - queued;
	const times = (failure: PlannedFailure) =>
		failure.times === undefined ? {} : { times: failure.times };
	let env: Record<string, string>;
	let address: string;
	let stop: () => Promise<void>;
	switch (vendor) {
		case "http": {
			const fake = await startFakeHttpImageService({ port, latencyMs });
			for (const failure of options.failures) {
				fake.setBehaviour(
					failure.endpoint === "start"
						? { start: toHttpStart(failure.kind) }
						: { poll: toHttpPoll(failure.kind) },
				);
			}
			env = { IMAGE_PROVIDER: "http", IMAGE_API_URL: fake.url };
			address = fake.url;
			stop = fake.stop;
			break;
		}
		case "comfyui": {
			const fake = await startFakeComfyUi({
				port,
				// Twenty sampler steps with preview frames on the WebSocket, as a real sampler shows.
				behaviour: { pendingMs: queued, runningMs: running, steps: 20 },
			});
			for (const failure of options.failures) {
				const endpoint = FAKE_COMFYUI_ENDPOINTS.find((candidate) => candidate === failure.endpoint);
				const kind = findKey(FAKE_COMFYUI_FAILURES, failure.kind);
				if (endpoint && kind) fake.fail(endpoint, kind, times(failure));
			}
			env = { IMAGE_PROVIDER: "comfyui", COMFYUI_URL: fake.origin };
			address = fake.origin;
			stop = fake.stop;
			break;
		}
		case "replicate": {
			const fake = await startFakeReplicate({
				port,
				behaviour: { startingMs: queued, processingMs: running },
			});
			for (const failure of options.failures) {
				const endpoint = FAKE_REPLICATE_ENDPOINTS.find(
					(candidate) => candidate === failure.endpoint,
				);
				const kind = findKey(FAKE_REPLICATE_FAILURES, failure.kind);
				if (endpoint && kind) fake.fail(endpoint, kind, times(failure));
			}
			env = {
				IMAGE_PROVIDER: "replicate",
				REPLICATE_API_TOKEN: FAKE_REPLICATE_TOKEN,
				REPLICATE_BASE_URL: fake.baseUrl,
			};
			address = fake.baseUrl;
			stop = fake.stop;
			break;
		}
		case "openai": {
			const fake = await startFakeOpenAi({ port, behaviour: { latencyMs } });
			for (const failure of options.failures) {
				const kind = findKey(FAKE_OPENAI_FAILURES, failure.kind);
				if (failure.endpoint === "generate" && kind) fake.fail("generate", kind, times(failure));
			}
			env = {
				IMAGE_PROVIDER: "openai",
				OPENAI_API_KEY: FAKE_OPENAI_KEY,
				OPENAI_BASE_URL: fake.baseUrl,
			};
			address = fake.baseUrl;
			stop = fake.stop;
			break;
		}
		case "fal": {
			const fake = await startFakeFal({
				port,
				behaviour: { queueMs: queued, progressMs: running },
			});
			for (const failure of options.failures) {
				const endpoint = FAKE_FAL_ENDPOINTS.find((candidate) => candidate === failure.endpoint);
				const kind = findKey(FAKE_FAL_FAILURES, failure.kind);
				if (endpoint && kind) fake.fail(endpoint, kind, times(failure));
			}
			env = { IMAGE_PROVIDER: "fal", FAL_KEY: FAKE_FAL_KEY, FAL_QUEUE_URL: fake.queueUrl };
			address = fake.queueUrl;
			stop = fake.stop;
			break;
		}
	}
	const assignments = Object.entries(env).map(([name, value]) => `${name}=${value}`);
	const lines = [
		`Fake ${NAMES[vendor]} listening on ${address}`,
		"Start Atelier against it (in another terminal):",
		`  ${assignments.join(" ")} npm start`,
		"or put these lines in .env:",
		...assignments.map((line) => `  ${line}`),
		`Jobs take about ${latencyMs} ms.`,
		// ComfyUI and the http contract have no moderation of their own.
		...(vendor === "http" || vendor === "comfyui"
			? []
			: [`Prompts containing "${FAKE_REFUSED_WORD}" are refused by its moderation.`]),
		...(options.failures.length > 0
			? [`Planned failures: ${options.failures.map(describePlannedFailure).join(", ")}`]
			: ["Failures to try with --fail <endpoint>:<kind>[:times]:", ...describeFailures(vendor)]),
		"Press Ctrl+C to stop.",
	];
	return { lines, env, stop };
}

function describePlannedFailure(failure: PlannedFailure): string {
	const times = failure.times === undefined ? "" : ` x${failure.times}`;
	return `${failure.endpoint}:${failure.kind}${times}`;
}

function findKey<Catalogue extends Record<string, string>>(
	catalogue: Catalogue,
	key: string,
): (keyof Catalogue & string) | undefined {
	return Object.keys(catalogue).find(
		(candidate): candidate is keyof Catalogue & string => candidate === key,
	);
}

function toHttpStart(kind: string) {
	return HTTP_FAILURES.start.find((candidate) => candidate === kind) ?? "ok";
}

function toHttpPoll(kind: string) {
	return HTTP_FAILURES.poll.find((candidate) => candidate === kind) ?? "ok";
}

/** The runner's main: parse, start, print, and stop cleanly on Ctrl+C or SIGTERM. */
export async function runFakeFromArgs(
	argv: readonly string[],
	write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<RunningFake | undefined> {
	const options = parseFakeArgs(argv);
	if ("error" in options) {
		write(options.error);
		process.exitCode = 1;
		return undefined;
	}
	const fake = await startFakeForVendor(options);
	for (const line of fake.lines) write(line);
	const stopOnSignal = () => {
		void fake.stop().then(() => process.exit(0));
	};
	process.once("SIGINT", stopOnSignal);
	process.once("SIGTERM", stopOnSignal);
	return fake;
}
