import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { type Env, parseEnv } from "../../config/env";
import { createProviderFromEnv } from "./provider-registry";

function parseTestEnv(values: Record<string, string>): Env {
	const result = parseEnv(values);
	if (!result.ok) throw new Error(result.problems.join("; "));
	return result.env;
}

async function writeTempFile(name: string, text: string): Promise<string> {
	const folder = await mkdtemp(path.join(tmpdir(), "atelier-workflow-"));
	onTestFinished(() => rm(folder, { recursive: true, force: true }));
	const file = path.join(folder, name);
	await writeFile(file, text);
	return file;
}

describe("createProviderFromEnv", () => {
	it.each([
		[{ IMAGE_PROVIDER: "local" }, "local"],
		[{ IMAGE_PROVIDER: "http", IMAGE_API_URL: "http://127.0.0.1:9000/generate" }, "http"],
		[{ IMAGE_PROVIDER: "comfyui", COMFYUI_URL: "http://127.0.0.1:8188" }, "comfyui"],
		[{ IMAGE_PROVIDER: "replicate", REPLICATE_API_TOKEN: "r8_abc" }, "replicate"],
		[{ IMAGE_PROVIDER: "openai", OPENAI_API_KEY: "sk-abc" }, "openai"],
		[{ IMAGE_PROVIDER: "fal", FAL_KEY: "id:secret" }, "fal"],
	])("builds the provider %j names", (values, name) => {
		expect(createProviderFromEnv(parseTestEnv(values)).name).toBe(name);
	});

	it("reads a ComfyUI workflow file and checks it against the bindings at boot", async () => {
		const workflow = {
			"1": { class_type: "CLIPTextEncode", inputs: { text: "" } },
			"2": { class_type: "EmptyLatentImage", inputs: { width: 512, height: 512 } },
			"3": { class_type: "KSampler", inputs: { noise_seed: 1 } },
			"4": { class_type: "SaveImage", inputs: { images: ["3", 0] } },
		};
		const file = await writeTempFile("workflow.json", JSON.stringify(workflow));
		const base = {
			IMAGE_PROVIDER: "comfyui",
			COMFYUI_URL: "http://gpu:8188",
			COMFYUI_WORKFLOW_FILE: file,
		};
		expect(() => createProviderFromEnv(parseTestEnv(base))).toThrow(
			/COMFYUI_PROMPT_INPUT: 6\.text: the workflow has no node "6"/,
		);

		const fitting = {
			...base,
			COMFYUI_PROMPT_INPUT: "1.text",
			COMFYUI_WIDTH_INPUT: "2.width",
			COMFYUI_HEIGHT_INPUT: "2.height",
			COMFYUI_BATCH_INPUT: "none",
			COMFYUI_SEED_INPUT: "3.noise_seed",
			COMFYUI_AUTH_HEADER: "Authorization: Basic dXNlcjpwYXNz",
		};
		expect(createProviderFromEnv(parseTestEnv(fitting)).name).toBe("comfyui");
	});

	it("names COMFYUI_WORKFLOW_FILE when the file is missing or not a workflow", async () => {
		const missing = {
			IMAGE_PROVIDER: "comfyui",
			COMFYUI_URL: "http://gpu:8188",
			COMFYUI_WORKFLOW_FILE: path.join(tmpdir(), "no-such-workflow.json"),
		};
		expect(() => createProviderFromEnv(parseTestEnv(missing))).toThrow(
			/COMFYUI_WORKFLOW_FILE: cannot be read: ENOENT/,
		);
		const uiFormat = await writeTempFile("ui.json", '{"nodes": [], "links": []}');
		expect(() =>
			createProviderFromEnv(parseTestEnv({ ...missing, COMFYUI_WORKFLOW_FILE: uiFormat })),
		).toThrow(/UI format/);
	});
});
