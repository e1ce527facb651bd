import { BlockList, isIP } from "node:net";

// Every range a server-side request must not reach on a URL someone else chose: loopback, private
// networks, link-local (where cloud metadata lives), CGNAT, "this network", multicast and reserved.
// BlockList also matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 subnets.
const PRIVATE_ADDRESSES = createPrivateAddressList();

function createPrivateAddressList(): BlockList {
	const list = new BlockList();
	const ipv4: Array<[string, number]> = [
		["0.0.0.0", 8],
		["10.0.0.0", 8],
		["100.64.0.0", 10],
		["127.0.0.0", 8],
		["169.254.0.0", 16],
		["172.16.0.0", 12],
		["192.168.0.0", 16],
		["224.0.0.0", 4],
		["240.0.0.0", 4],
	];
	for (const [network, prefix] of ipv4) list.addSubnet(network, prefix, "ipv4");
	const ipv6: Array<[string, number]> = [
		// Covers :: (unspecified), ::1 (loopback) and the deprecated IPv4-compatible ::a.b.c.d.
		["::", 96],
		["fc00::", 7],
		["fe80::", 10],
		["ff00::", 8],
	];
	for (const [network, prefix] of ipv6) list.addSubnet(network, prefix, "ipv6");
	return list;
}

/** Strips the brackets WHATWG URLs keep around IPv6 hostnames (`[::1]`). */
export function unbracketHostname(hostname: string): string {
	return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** True for an IP address on a loopback, private, link-local, CGNAT or otherwise non-public range. */
export function isPrivateAddress(address: string): boolean {
	const unbracketed = unbracketHostname(address);
	const version = isIP(unbracketed);
	if (version === 4) return PRIVATE_ADDRESSES.check(unbracketed, "ipv4");
	if (version === 6) return PRIVATE_ADDRESSES.check(unbracketed, "ipv6");
	// Not an address at all: refuse rather than guess.
	return true;
}

const LOCAL_NAME_SUFFIXES = [".localhost", ".local", ".internal", ".lan", ".home.arpa"];

/**
 * True when a URL hostname is on a private network without asking DNS: a private IP literal,
 * `localhost`, a special-use local suffix, or a single-label name (a Docker or LAN service name,
 * which public DNS never answers).
 */
export function isPrivateHostname(hostname: string): boolean {
	const name = unbracketHostname(hostname.toLowerCase()).replace(/\.$/, "");
	if (isIP(name) !== 0) return isPrivateAddress(name);
	if (name === "localhost" || !name.includes(".")) return true;
	return LOCAL_NAME_SUFFIXES.some((suffix) => name.endsWith(suffix));
}
