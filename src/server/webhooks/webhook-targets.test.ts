import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookEndpointListSchema } from "../../shared/notifications/webhooks";
import { DEFAULT_WEBHOOK_SETTINGS } from "../server";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { addEndpoint, sendTestEvent, waitForSettled } from "../testing/webhook-kit";

// Where webhooks may go: public addresses only, judged on what the test's DNS answers, when an
// endpoint is saved and again at every attempt.
describe.each(availableDatabaseKinds())("webhook targets (%s)", (kind) => {
	let server: TestServer;
	// What the test's DNS answers; a test changes it to move a name to another address.
	const dns = new Map<string, string[]>([
		["hooks.example.com", ["93.184.216.34"]],
		["intranet.example.com", ["93.184.216.34", "10.1.2.3"]],
		["metadata.example.com", ["169.254.169.254"]],
		["localhost", ["127.0.0.1"]],
		["nat64.example.com", ["64:ff9b::a00:5"]],
		["sixtofour.example.com", ["2606:4700::1111", "2002:c0a8:101::1"]],
	]);

	beforeAll(async () => {
		server = await createTestServer(kind, {
			webhooks: {
				...DEFAULT_WEBHOOK_SETTINGS,
				allowPrivateTargets: false,
				resolveHost: async (hostname) => dns.get(hostname) ?? [],
				retryDelaysMs: [],
				timeoutMs: 1_000,
			},
		});
	});
	afterAll(async () => {
		await server?.close();
	});

	it.each([
		["https://127.0.0.1/hooks", "127.0.0.1"],
		["https://127.8.9.10/hooks", "127.8.9.10"],
		["https://10.0.0.5/hooks", "10.0.0.5"],
		["https://172.16.4.2/hooks", "172.16.4.2"],
		["https://192.168.1.20/hooks", "192.168.1.20"],
		["https://100.64.0.1/hooks", "100.64.0.1"],
		["https://169.254.169.254/latest/meta-data", "169.254.169.254"],
		["https://0.0.0.0/hooks", "0.0.0.0"],
		["https://198.18.0.1/hooks", "198.18.0.1"],
		["https://192.0.0.170/hooks", "192.0.0.170"],
		["https://[::1]/hooks", "::1"],
		["https://[fe80::1]/hooks", "fe80::1"],
		["https://[fd00:ec2::254]/hooks", "fd00:ec2::254"],
		["https://[fec0::1]/hooks", "fec0::1"],
		["https://[::ffff:127.0.0.1]/hooks", "::ffff:7f00:1"],
		["https://[::ffff:0:127.0.0.1]/hooks", "::ffff:0:7f00:1"],
		["https://[64:ff9b::169.254.169.254]/hooks", "64:ff9b::a9fe:a9fe"],
		["https://[64:ff9b:1::808:808]/hooks", "64:ff9b:1::808:808"],
		["https://[2002:a9fe:a9fe::1]/hooks", "2002:a9fe:a9fe::1"],
		["https://localhost/", "localhost"],
		["https://intranet.example.com/hooks", "intranet.example.com"],
		["https://metadata.example.com/hooks", "metadata.example.com"],
		["https://nat64.example.com/hooks", "nat64.example.com"],
		["https://sixtofour.example.com/hooks", "sixtofour.example.com"],
	])("refuses %s when it is saved, without naming what its name resolved to", async (url, host) => {
		const { client } = await createTestUser(server);
		const response = await client.request("/api/account/webhooks", {
			method: "POST",
			json: { url, events: ["generation.completed"] },
		});
		const message = await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
		expect(message).toBe(`${host} is not a public address; webhooks go only to public addresses.`);
		for (const answer of dns.get(host) ?? []) expect(message).not.toContain(answer);
		const listed = WebhookEndpointListSchema.parse(
			await (await client.request("/api/account/webhooks")).json(),
		);
		expect(listed.items).toEqual([]);
	});

	it("saves an endpoint whose name leads through NAT64 or 6to4 to a public address", async () => {
		const { client } = await createTestUser(server);
		dns.set("dns64.example.com", ["64:ff9b::5db8:d822", "2002:5db8:d822::1"]);
		await addEndpoint(client, "https://dns64.example.com/hooks");
	});

	it("refuses plain http to a public address, and a name that does not resolve", async () => {
		const { client } = await createTestUser(server);
		for (const [url, message] of [
			["http://hooks.example.com/hooks", "The URL must start with https://."],
			[
				"https://nowhere.example.com/hooks",
				"nowhere.example.com could not be found. Check the address.",
			],
		]) {
			const response = await client.request("/api/account/webhooks", {
				method: "POST",
				json: { url, events: ["generation.completed"] },
			});
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(message);
		}
	});

	it.each([
		["127.0.0.1"],
		["64:ff9b::a9fe:a9fe"],
		["2002:a00:1::"],
		["::ffff:0:a00:1"],
		["fec0::5"],
		["198.18.4.4"],
	])(
		"refuses to send to a name that has moved to %s since it was saved, without naming it",
		async (address) => {
			const { client } = await createTestUser(server);
			const name = `moving-${address.replaceAll(/[:.]/g, "-")}.example.com`;
			dns.set(name, ["93.184.216.34"]);
			const created = await addEndpoint(client, `https://${name}/hooks`);
			dns.set(name, [address]);

			await sendTestEvent(client, created.id);
			const [delivery] = await waitForSettled(client, created.id);

			expect(delivery).toMatchObject({
				status: "failed",
				attempts: 1,
				lastStatusCode: null,
				lastError: `Refused: ${name} is not a public address; webhooks go only to public addresses.`,
			});
		},
	);
});
