import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Generation } from "../../shared/generations/generations";
import { type S3Server, startS3Server } from "../testing/s3-server";
import { type ServerProcess, signUpOn, startServer, waitFor } from "../testing/server-process";

describe("the built server with STORAGE=s3", () => {
	let s3: S3Server;
	let dataDir: string;
	beforeAll(async () => {
		s3 = await startS3Server({ bucket: "atelier-images" });
		await mkdir(".tmp", { recursive: true });
		dataDir = await mkdtemp(path.join(".tmp", "s3-process-"));
	});
	afterAll(async () => {
		await s3?.stop();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it("starts without the AWS SDK's Node version warning and keeps a generation's images in the bucket", async () => {
		// The process gets only these variables (and PATH): nothing silences the SDK from outside.
		let server: ServerProcess | undefined;
		try {
			server = await startServer(inject("serverEntry"), {
				DATA_DIR: dataDir,
				STORAGE: "s3",
				S3_BUCKET: s3.bucket,
				S3_REGION: s3.region,
				S3_ENDPOINT: s3.endpoint,
				S3_FORCE_PATH_STYLE: "true",
				S3_ACCESS_KEY_ID: s3.accessKeyId,
				S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
				S3_PREFIX: "process/",
				LOCAL_ENGINE_DELAY_MS: "0",
				AUTH_RATE_LIMIT_ENABLED: "false",
				LOG_LEVEL: "warn",
			});
			const origin = server.origin;
			const session = await signUpOn(origin, "bucket@example.com");
			const created = await fetch(`${origin}/api/generations`, {
				method: "POST",
				headers: session,
				body: JSON.stringify({ prompt: "a lighthouse in fog", aspectRatio: "--ar 1:1" }),
			});
			expect(created.status).toBe(201);
			const { id } = (await created.json()) as { id: string };
			const generation = await waitFor("the generation to complete", async () => {
				const response = await fetch(`${origin}/api/generations/${id}`, { headers: session });
				const body = (await response.json()) as Generation;
				if (body.status === "failed")
					throw new Error(`exited: the generation failed: ${body.error}`);
				return body.status === "completed" ? body : undefined;
			});

			// Four images, their display copies and thumbnails, in the bucket under the prefix, read
			// back through the server.
			expect(await s3.listKeys(`process/generations/${id}/`)).toHaveLength(12);
			expect(generation.images).toHaveLength(4);
			for (const image of generation.images) {
				const response = await fetch(`${origin}${image.thumbnailUrl}`, { headers: session });
				expect(response.status).toBe(200);
				expect(response.headers.get("content-type")).toBe("image/webp");
			}

			// The SDK warns on Node older than 22 when the first client is made, at start.
			expect(server.output()).not.toContain("NodeVersionSupportWarning");
		} finally {
			await server?.kill();
		}
	}, 120_000);
});
