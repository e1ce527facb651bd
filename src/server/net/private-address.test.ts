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
