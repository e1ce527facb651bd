import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBackupCommands, runCommand } from "../testing/backup-kit";

describe("npm run backup on PostgreSQL", () => {
	let commands: Awaited<ReturnType<typeof buildBackupCommands>>;

	beforeAll(async () => {
		commands = await buildBackupCommands();
	}, 60_000);
	afterAll(async () => {
		await commands?.remove();
	});

	it("refuses, naming the page whose Backups section says how to back up PostgreSQL and S3", async () => {
		const result = await runCommand(commands.backup, [".tmp/never-written"], {
			DATABASE_URL: "postgres://atelier@127.0.0.1:1/atelier",
		});
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("this command does not back up");
		const page = /\bdocs\/[a-z-]+\.md\b/.exec(result.stderr)?.[0] ?? "";
		expect(page).toBe("docs/operations.md");
		expect(result.stderr).toContain('"Backups"');
		const text = await readFile(page, "utf8");
		const backups = text.split(/^## /m).find((section) => section.startsWith("Backups\n")) ?? "";
		expect(backups).toContain("pg_dump");
		expect(backups).toContain("aws s3 sync");
	});
});
