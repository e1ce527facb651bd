// Starts a generation with a personal API token, waits for it and saves its images, typed by the
// types generated from Atelier's OpenAPI document (atelier-api.d.ts). Run it with Node 20+:
//   ATELIER_URL=http://localhost:3000 ATELIER_TOKEN=atl_... npx tsx examples/api-client/start-generation.ts
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import type { paths } from "./atelier-api";

type StartRequest = paths["/api/generations"]["post"]["requestBody"]["content"]["application/json"];
type Started = paths["/api/generations"]["post"]["responses"][201]["content"]["application/json"];
type Poll =
	paths["/api/generations/{id}/status"]["get"]["responses"][200]["content"]["application/json"];

const baseUrl = process.env.ATELIER_URL ?? "http://localhost:3000";
const headers = {
	authorization: `Bearer ${process.env.ATELIER_TOKEN ?? ""}`,
	"content-type": "application/json",
};

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
	const response = await fetch(new URL(path, baseUrl), { ...init, headers });
	if (!response.ok)
		throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
	return (await response.json()) as T;
}

export async function generate(request: StartRequest): Promise<string[]> {
	const started = await call<Started>("/api/generations", {
		method: "POST",
		body: JSON.stringify(request),
		// A retry with the same key never starts a second generation.
		headers: { ...headers, "idempotency-key": randomUUID() },
	});
	if (!started.success) throw new Error(started.error.message);
	// A request with `variations` or `models` starts a batch, answered with its generations.
	if ("generations" in started) throw new Error("generate() starts one generation, not a batch");
	let poll = await call<Poll>(`${started.pollingUrl}?wait=20000`);
	while (poll.status === "queued" || poll.status === "running") {
		poll = await call<Poll>(`${started.pollingUrl}?wait=20000`);
	}
	if (poll.status === "failed") throw new Error(poll.message ?? "The generation failed");
	return poll.results;
}

const images = await generate({
	prompt: "A lighthouse at dusk, oil painting",
	aspectRatio: "--ar 16:9",
});
for (const [index, url] of images.entries()) {
	const image = await fetch(new URL(url, baseUrl), { headers });
	await writeFile(`image-${index}.png`, Buffer.from(await image.arrayBuffer()));
}
