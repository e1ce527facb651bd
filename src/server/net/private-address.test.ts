import { describe, expect, it } from "vitest";
import { isPrivateAddress, isPrivateHostname } from "./private-address";

describe("isPrivateAddress", () => {
	it.each([
		"127.0.0.1",
		"127.255.0.9",
		"10.0.0.1",
		"172.16.0.1",
		"172.31.255.255",
		"192.168.1.20",
		"169.254.169.254",
		"100.64.0.1",
		"100.127.255.254",
		"0.0.0.0",
		"224.0.0.1",
		"255.255.255.255",
		"::1",
		"::",
		"[::1]",
		"fc00::1",
		"fd00:ec2::254",
		"fe80::1",
		"::ffff:127.0.0.1",
		"::ffff:a9fe:a9fe",
		"::ffff:10.0.0.1",
		// Benchmarking and the IETF's protocol assignments.
		"198.18.0.1",
		"198.19.255.254",
		"192.0.0.8",
		// NAT64's well-known prefix, with a private IPv4 address inside.
		"64:ff9b::7f00:1",
		"64:ff9b::127.0.0.1",
		"64:ff9b::a9fe:a9fe",
		"64:ff9b::10.0.0.1",
		// Local-use NAT64 leads inside whatever it embeds.
		"64:ff9b:1::808:808",
		"64:ff9b:1:ffff::1",
		// 6to4, with a private IPv4 address inside.
		"2002:7f00:1::",
		"2002:a9fe:a9fe::1",
		"2002:c0a8:0101::5",
		// IPv4-translated (::ffff:0:a.b.c.d) and IPv4-mapped written in full.
		"::ffff:0:127.0.0.1",
		"::ffff:0:7f00:1",
		"0:0:0:0:0:ffff:a00:1",
		// Site-local and Teredo.
		"fec0::1",
		"feff::1",
		"2001:0:4136:e378:8000:63bf:3fff:fdd2",
		"not an address",
	])("refuses %s", (address) => {
		expect(isPrivateAddress(address)).toBe(true);
	});

	it.each([
		"8.8.8.8",
		"93.184.215.14",
		"172.15.255.255",
		"172.32.0.1",
		"100.63.255.255",
		"100.128.0.1",
		"169.253.1.1",
		"2606:4700:4700::1111",
		"::ffff:8.8.8.8",
		"198.17.255.255",
		"198.20.0.1",
		"192.0.1.1",
		// Translation prefixes leading to a public IPv4 address (DNS64 answers such on IPv6-only hosts).
		"64:ff9b::808:808",
		"64:ff9b::8.8.8.8",
		"2002:808:808::1",
		"::ffff:0:8.8.8.8",
		"2001:db9::1",
	])("accepts the public address %s", (address) => {
		expect(isPrivateAddress(address)).toBe(false);
	});
});

describe("isPrivateHostname", () => {
	it.each([
		"localhost",
		"LOCALHOST",
		"comfy.localhost",
		"127.0.0.1",
		"[::1]",
		"imagegen",
		"gpu.lan",
		"box.local",
		"api.internal",
		"10.1.2.3",
		"[64:ff9b::7f00:1]",
		"[2002:a9fe:a9fe::]",
		"[fec0::1]",
	])("treats %s as private", (hostname) => {
		expect(isPrivateHostname(hostname)).toBe(true);
	});

	it.each(["api.example.com", "8.8.8.8", "[2606:4700:4700::1111]"])(
		"treats %s as public",
		(hostname) => {
			expect(isPrivateHostname(hostname)).toBe(false);
		},
	);
});
