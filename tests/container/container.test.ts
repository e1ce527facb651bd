// The container image as an operator runs it: built from the Dockerfile with Podman, run on its
// embedded database with a volume, and as two replicas on one PostgreSQL sharing one images volume.
// `npm run test:container`; scripts/install-container-tools.sh installs what it needs.

import { readFileSync } from "node:fs";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { findFreePort } from "../../src/server/testing/postgres-cluster";
import { signUpOn, waitFor } from "../../src/server/testing/server-process";
import {
	CreateGenerationResponseSchema,
	GenerationSchema,
	PollResponseSchema,
} from "../../src/shared/generations/generations";
import { imageExists, isPodmanAvailable, podman, removeQuietly, runCommand } from "./podman";
import { ensureStandInImages, POSTGRES_IMAGE } from "./stand-in-images";

const IMAGE = "localhost/atelier-test-app:latest";
const MAX_IMAGE_MIB = 320;
// Where a TLS-intercepting proxy's authority is trusted on Debian hosts; lent to the build when present.
const HOST_CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";
// On every image the build makes, the stages' too, so that the clean-up finds them all.
const BUILD_LABEL = "io.atelier.container-test=app";
const SECRET = "container-test-secret-at-least-32-characters";

type Headers = Awaited<ReturnType<typeof signUpOn>>;

// Everything this file creates, removed at the end whatever happened.
const created = {
	containers: new Set<string>(),
	volumes: new Set<string>(),
	networks: new Set<string>(),
};

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

async function buildAppImage(): Promise<void> {
	const caSecret = (await runCommand("test", ["-s", HOST_CA_BUNDLE])).code === 0;
	await podman([
		"build",
		// Docker's image format: OCI images have no HEALTHCHECK.
		"--format",
		"docker",
		"--pull=never",
		// No intermediate images left behind; npm's download cache is a cache mount and stays.
		"--layers=false",
		"--label",
		BUILD_LABEL,
		...(caSecret ? ["--secret", `id=ca-certificates,src=${HOST_CA_BUNDLE}`] : []),
		"--tag",
		IMAGE,
		".",
	]);
}

/** Starts a container (detached) named `name`; its options before the image, its command after. */
async function runContainer(name: string, options: readonly string[]): Promise<void> {
	created.containers.add(name);
	await podman(["run", "--detach", "--name", name, ...options, IMAGE]);
}

async function containerState(name: string): Promise<{ status: string; exitCode: number }> {
	const [status = "", exitCode = ""] = (
		await podman(["inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", name])
	).split(" ");
	return { status, exitCode: Number(exitCode) };
}

async function logsOf(name: string): Promise<string> {
	const result = await runCommand("podman", ["logs", name]);
	return `${result.stdout}${result.stderr}`;
}

/**
 * Waits until the image's own HEALTHCHECK passes (Podman schedules health checks through systemd,
 * which a CI machine may lack, so it is run here). Fails at once if the container stopped, unless
 * a restart policy is to start it again.
 */
async function waitUntilHealthy(name: string, options: { restarts?: boolean } = {}): Promise<void> {
	await waitFor(
		`${name} to be healthy`,
		async () => {
			const { status } = await containerState(name);
			if (status === "exited" && !options.restarts) {
				throw new Error(`exited: ${name}:\n${await logsOf(name)}`);
			}
			return (await runCommand("podman", ["healthcheck", "run", name])).code === 0
				? true
				: undefined;
		},
		120_000,
	);
}

/** Asks a local-engine generation of `prompt` at `origin` and waits until it has finished. */
async function generate(origin: string, headers: Headers, prompt: string): Promise<string> {
	const response = await fetch(`${origin}/api/generations`, {
		method: "POST",
		headers,
		body: JSON.stringify({ prompt, aspectRatio: "--ar 1:1" }),
	});
	const answer = CreateGenerationResponseSchema.parse(await response.json());
	if (!answer.success) throw new Error(answer.error.message);
	await waitFor(`generation ${answer.id} to finish`, async () => {
		const poll = PollResponseSchema.parse(
			await (await fetch(`${origin}${answer.pollingUrl}?wait=5000`, { headers })).json(),
		);
		return poll.status === "completed" || poll.status === "failed" ? poll : undefined;
	});
	return answer.id;
}

async function readGeneration(origin: string, headers: Headers, id: string) {
	const response = await fetch(`${origin}/api/generations/${id}`, { headers });
	expect(response.status).toBe(200);
	return GenerationSchema.parse(await response.json());
}

/** The bytes of a generation's first original, as `origin` serves them. */
async function readFirstImage(origin: string, headers: Headers, id: string): Promise<Buffer> {
	const generation = await readGeneration(origin, headers, id);
	const url = generation.images[0]?.url;
	if (!url) throw new Error(`generation ${id} has no image`);
	const response = await fetch(new URL(url, origin), { headers });
	expect(response.status).toBe(200);
	return Buffer.from(await response.arrayBuffer());
}

async function signIn(origin: string, email: string): Promise<number> {
	const response = await fetch(`${origin}/api/auth/sign-in/email`, {
		method: "POST",
		headers: { "content-type": "application/json", origin },
		body: JSON.stringify({ email, password: "secret12" }),
	});
	return response.status;
}

// What `podman image inspect` says of an image, as far as this file reads it.
const ImageInspectionSchema = z.object({
	Config: z.object({
		User: z.string(),
		Cmd: z.array(z.string()),
		Volumes: z.record(z.string(), z.unknown()).nullable().optional(),
	}),
	Healthcheck: z.object({ Test: z.array(z.string()) }).optional(),
});

beforeAll(async () => {
	if (!(await isPodmanAvailable())) {
		throw new Error(
			"Podman is not installed. On Debian or Ubuntu run scripts/install-container-tools.sh (it installs Podman and what builds the base images), then npm run test:container again.",
		);
	}
	const standIns = Date.now();
	await ensureStandInImages();
	console.log(`base images ready in ${seconds(Date.now() - standIns)}`);
	const build = Date.now();
	await buildAppImage();
	console.log(`image built in ${seconds(Date.now() - build)}`);
});

afterAll(async () => {
	await removeQuietly("container", [...created.containers]);
	await removeQuietly("volume", [...created.volumes]);
	await removeQuietly("network", [...created.networks]);
	const built = await podman(["images", "--all", "--quiet", "--filter", `label=${BUILD_LABEL}`]);
	await removeQuietly("image", [IMAGE, ...new Set(built.split("\n").filter(Boolean))]);
});

describe("the Atelier image", () => {
	it(`holds only what the server needs: under ${MAX_IMAGE_MIB} MiB, no development package`, async () => {
		const bytes = Number(await podman(["image", "inspect", "--format", "{{.Size}}", IMAGE]));
		const mib = bytes / 1024 / 1024;
		console.log(`image size: ${mib.toFixed(0)} MiB (${(bytes / 1e6).toFixed(0)} MB)`);
		expect(mib).toBeLessThan(MAX_IMAGE_MIB);

		const manifest = z
			.object({ devDependencies: z.record(z.string(), z.string()) })
			.parse(JSON.parse(readFileSync("package.json", "utf8")));
		const present = await podman([
			"run",
			"--rm",
			IMAGE,
			"node",
			"-e",
			"const { existsSync } = require('node:fs'); console.log(JSON.stringify(process.argv.slice(1).filter((name) => existsSync('node_modules/' + name))))",
			...Object.keys(manifest.devDependencies),
		]);
		expect(z.array(z.string()).parse(JSON.parse(present))).toEqual([]);
	});

	it("runs Node as a non-root user, keeps /data on a volume and checks /api/ready", async () => {
		const [image] = z
			.array(ImageInspectionSchema)
			.parse(JSON.parse(await podman(["image", "inspect", IMAGE])));
		expect(image?.Config.User).toBe("node");
		expect(image?.Config.Cmd[0]).toBe("node");
		expect(Object.keys(image?.Config.Volumes ?? {})).toEqual(["/data"]);
		expect(image?.Healthcheck?.Test.join(" ")).toContain("/api/ready");
	});

	it("exits at once when its database cannot be reached, so a restart policy retries it", async () => {
		const name = "atelier-test-no-database";
		await runContainer(name, [
			"--env",
			"DATABASE_URL=postgres://atelier:atelier@127.0.0.1:9/atelier",
			"--env",
			`BETTER_AUTH_SECRET=${SECRET}`,
		]);
		const state = await waitFor(`${name} to exit`, async () => {
			const current = await containerState(name);
			return current.status === "exited" ? current : undefined;
		});
		expect(state.exitCode).not.toBe(0);
		expect(await logsOf(name)).toContain("Atelier failed to start");
	});
});

describe("one container on its embedded database", () => {
	const name = "atelier-test-embedded";
	const volume = "atelier-test-embedded-data";

	it("keeps people, generations and images in its volume across a stop and a start", async () => {
		const port = await findFreePort();
		const origin = `http://127.0.0.1:${port}`;
		created.volumes.add(volume);
		const started = Date.now();
		await runContainer(name, [
			"--publish",
			`127.0.0.1:${port}:3000`,
			"--volume",
			`${volume}:/data`,
			"--env",
			`BASE_URL=${origin}`,
		]);
		await waitUntilHealthy(name);
		console.log(`cold start to healthy (empty volume): ${seconds(Date.now() - started)}`);

		const email = "embedded@example.com";
		const headers = await signUpOn(origin, email);
		const id = await generate(origin, headers, "a lighthouse in the container");
		const image = await readFirstImage(origin, headers, id);

		// SIGTERM reaches Node (no npm in between): the server drains, closes and exits cleanly.
		await podman(["stop", "--time", "30", name]);
		expect(await containerState(name)).toEqual({ status: "exited", exitCode: 0 });
		expect(await logsOf(name)).toContain('"message":"stopped"');

		const restarted = Date.now();
		await podman(["start", name]);
		await waitUntilHealthy(name);
		console.log(`start to healthy (existing volume): ${seconds(Date.now() - restarted)}`);

		// The session still holds (its secret was generated into the volume), the password still
		// signs in, and the generation and its image are as they were.
		const generation = await readGeneration(origin, headers, id);
		expect(generation.status).toBe("completed");
		expect(generation.prompt).toBe("a lighthouse in the container");
		expect(await readFirstImage(origin, headers, id)).toEqual(image);
		expect(await signIn(origin, email)).toBe(200);
	});
});

describe("two containers on one PostgreSQL, sharing one images volume", () => {
	const network = "atelier-test-network";
	const database = "atelier-test-postgres";
	const images = "atelier-test-shared-images";
	const replicas = ["atelier-test-replica-a", "atelier-test-replica-b"];

	beforeAll(async () => {
		if (!(await imageExists(POSTGRES_IMAGE))) throw new Error(`${POSTGRES_IMAGE} is missing`);
		created.networks.add(network);
		await podman(["network", "create", network]);
		created.containers.add(database);
		await podman([
			"run",
			"--detach",
			"--name",
			database,
			"--network",
			network,
			"--env",
			"POSTGRES_USER=atelier",
			"--env",
			"POSTGRES_PASSWORD=atelier",
			"--env",
			"POSTGRES_DB=atelier",
			POSTGRES_IMAGE,
		]);
		await waitFor("PostgreSQL to accept connections", async () => {
			const result = await runCommand("podman", [
				"exec",
				database,
				"pg_isready",
				"--host",
				"127.0.0.1",
				"--username",
				"atelier",
			]);
			return result.code === 0 ? true : undefined;
		});
	});

	it("both serve the same people, and each shows the images the other generated", async () => {
		const ports = await Promise.all(replicas.map(() => findFreePort()));
		const origins = ports.map((port) => `http://127.0.0.1:${port}`);
		// Both behind one address, as behind a load balancer: the first replica's.
		const baseUrl = origins[0] ?? "";
		created.volumes.add(images);
		await Promise.all(
			replicas.map((name, index) =>
				runContainer(name, [
					"--network",
					network,
					"--publish",
					`127.0.0.1:${ports[index]}:3000`,
					"--volume",
					`${images}:/data`,
					"--env",
					`DATABASE_URL=postgres://atelier:atelier@${database}:5432/atelier`,
					"--env",
					`BETTER_AUTH_SECRET=${SECRET}`,
					"--env",
					`BASE_URL=${baseUrl}`,
				]),
			),
		);
		await Promise.all(replicas.map((name) => waitUntilHealthy(name)));

		const [first = "", second = ""] = origins;
		const headers = await signUpOn(first, "replicas@example.com", baseUrl);
		const fromFirst = await generate(first, headers, "made through the first replica");
		const fromSecond = await generate(second, headers, "made through the second replica");

		expect(await readFirstImage(second, headers, fromFirst)).toEqual(
			await readFirstImage(first, headers, fromFirst),
		);
		expect(await readFirstImage(first, headers, fromSecond)).toEqual(
			await readFirstImage(second, headers, fromSecond),
		);
		for (const origin of origins) {
			for (const id of [fromFirst, fromSecond]) {
				expect((await readGeneration(origin, headers, id)).status).toBe("completed");
			}
		}
	});
});

describe("compose.yaml", () => {
	const project = "atelier-test-compose";
	let folder = "";
	let environment: NodeJS.ProcessEnv = {};

	/** podman-compose on a copy of compose.yaml, in a folder without the developer's .env (which it would read). */
	function compose(args: readonly string[]) {
		return runCommand("podman-compose", ["--project-name", project, ...args], {
			cwd: folder,
			env: environment,
		});
	}

	beforeAll(async () => {
		folder = await mkdtemp(path.join(tmpdir(), "atelier-compose-"));
		await copyFile("compose.yaml", path.join(folder, "compose.yaml"));
	});

	afterAll(async () => {
		if (folder) await compose(["down", "--volumes"]);
		// podman-compose 1.0.3 leaves the project's network behind.
		await removeQuietly("network", [`${project}_default`]);
		await rm(folder, { recursive: true, force: true });
	});

	it("brings Atelier up on PostgreSQL, healthy and generating", async () => {
		const port = await findFreePort();
		const origin = `http://127.0.0.1:${port}`;
		environment = {
			PATH: process.env.PATH,
			ATELIER_IMAGE: IMAGE,
			ATELIER_PORT: String(port),
			BASE_URL: origin,
			POSTGRES_PASSWORD: "compose-password",
			BETTER_AUTH_SECRET: SECRET,
		};
		const started = Date.now();
		const up = await compose(["up", "--detach"]);
		expect(up.code, up.stdout + up.stderr).toBe(0);
		await waitUntilHealthy(`${project}_atelier_1`, { restarts: true });
		console.log(`compose up to healthy (PostgreSQL and Atelier): ${seconds(Date.now() - started)}`);

		const headers = await signUpOn(origin, "compose@example.com");
		const id = await generate(origin, headers, "composed");
		expect((await readGeneration(origin, headers, id)).status).toBe("completed");
	});
});
