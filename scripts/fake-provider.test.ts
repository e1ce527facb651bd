import { spawn } from "node:child_process";
import { describe, expect, it, onTestFinished } from "vitest";

describe("npm run fake:<vendor>", () => {
	it("bundles and starts the chosen fake, printing where it listens and the variables to use", async () => {
		const child = spawn(
			process.execPath,
			["scripts/fake-provider.mjs", "openai", "--port", "0", "--latency-ms", "0"],
			{ cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] },
		);
		onTestFinished(() => {
			child.kill("SIGTERM");
		});
		let output = "";
		child.stdout.on("data", (chunk) => {
			output += String(chunk);
		});
		child.stderr.on("data", (chunk) => {
			output += String(chunk);
		});
		await expect
			.poll(() => output, { timeout: 20_000, interval: 100 })
			.toMatch(/Press Ctrl\+C to stop/);
		const baseUrl = /OPENAI_BASE_URL=(\S+)/.exec(output)?.[1] ?? "";
		expect(output).toMatch(
			/^ {2}IMAGE_PROVIDER=openai OPENAI_API_KEY=\S+ OPENAI_BASE_URL=\S+ npm start$/m,
		);

		const response = await fetch(`${baseUrl}/images/generations`, {
			method: "POST",
			headers: { authorization: "Bearer sk-fake-openai-key", "content-type": "application/json" },
			body: JSON.stringify({ model: "gpt-image-1", prompt: "a fox", n: 1, size: "1024x1024" }),
		});
		expect(response.status).toBe(200);
		const body: unknown = await response.json();
		expect(body).toMatchObject({ data: [{ b64_json: expect.any(String) }] });
	});
});
