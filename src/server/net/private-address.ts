import { BlockList, isIP } from "node:net";

// Every range a server-side request must not reach on a URL someone else chose: loopback, private
// networks, link-local (where cloud metadata lives), CGNAT, "this network", the IETF's protocol
// assignments, benchmarking, multicast and reserved. BlockList also matches IPv4-mapped IPv6
// (::ffff:127.0.0.1) against the IPv4 subnets.
const PRIVATE_IPV4 = createBlockList("ipv4", [
	["0.0.0.0", 8],
	["10.0.0.0", 8],
	["100.64.0.0", 10],
	["127.0.0.0", 8],
	["169.254.0.0", 16],
	["172.16.0.0", 12],
	["192.0.0.0", 24],
	["192.168.0.0", 16],
	["198.18.0.0", 15],
	["224.0.0.0", 4],
	["240.0.0.0", 4],
]);

const PRIVATE_IPV6 = createBlockList("ipv6", [
	// Covers :: (unspecified), ::1 (loopback) and the deprecated IPv4-compatible ::a.b.c.d.
	["::", 96],
	// Local-use NAT64 (RFC 8215): a translator inside the operator's own network.
	["64:ff9b:1::", 48],
	// Teredo: the IPv4 server and client it embeds are obfuscated, and no webhook needs it.
	["2001::", 32],
	["fc00::", 7],
	["fe80::", 10],
	// Site-local, deprecated but still routed inside some networks.
	["fec0::", 10],
	["ff00::", 8],
]);

function createBlockList(family: "ipv4" | "ipv6", subnets: Array<[string, number]>): BlockList {
	const list = new BlockList();
	for (const [network, prefix] of subnets) list.addSubnet(network, prefix, family);
	return list;
}

/** The 16 bytes of an IPv6 address isIP accepts (a trailing dotted quad included). */
function parseIpv6(address: string): Uint8Array {
	const bytes = new Uint8Array(16);
	let text = address.split("%")[0] ?? "";
	const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
	if (quad !== undefined) {
		const [a = 0, b = 0, c = 0, d = 0] = quad.split(".").map(Number);
		text = `${text.slice(0, -quad.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}
	const [head = "", tail] = text.split("::");
	const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
	const start = groupsOf(head);
	const end = tail === undefined ? [] : groupsOf(tail);
	const groups = [...start, ...Array(8 - start.length - end.length).fill("0"), ...end];
	groups.forEach((group: string, index) => {
		const value = Number.parseInt(group, 16);
		bytes[index * 2] = value >> 8;
		bytes[index * 2 + 1] = value & 0xff;
	});
	return bytes;
}

/**
 * The IPv4 address an IPv6 address leads to through a translation prefix: NAT64's well-known
 * 64:ff9b::/96, IPv4-mapped ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96 and 6to4's 2002::/16.
 */
function embeddedIpv4(address: string): string | undefined {
	const bytes = parseIpv6(address);
	const group = (index: number) => ((bytes[index * 2] ?? 0) << 8) | (bytes[index * 2 + 1] ?? 0);
	const quad = (from: number) => Array.from(bytes.subarray(from, from + 4)).join(".");
	const isZero = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);
	if (group(0) === 0x2002) return quad(2);
	const isNat64 = group(0) === 0x64 && group(1) === 0xff9b && isZero(4, 12);
	const isMapped = isZero(0, 10) && group(5) === 0xffff;
	const isTranslated = isZero(0, 8) && group(4) === 0xffff && group(5) === 0;
	return isNat64 || isMapped || isTranslated ? quad(12) : undefined;
}

/** Strips the brackets WHATWG URLs keep around IPv6 hostnames (`[::1]`). */
export function unbracketHostname(hostname: string): string {
	return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/**
 * True for an IP address that is not public: on a loopback, private, link-local, CGNAT or
 * otherwise non-public range, or an IPv6 address translated to such an IPv4 address.
 */
export function isPrivateAddress(address: string): boolean {
	const unbracketed = unbracketHostname(address);
	const version = isIP(unbracketed);
	if (version === 4) return PRIVATE_IPV4.check(unbracketed, "ipv4");
	if (version === 6) {
		if (PRIVATE_IPV6.check(unbracketed, "ipv6")) return true;
		const ipv4 = embeddedIpv4(unbracketed);
		return ipv4 !== undefined && PRIVATE_IPV4.check(ipv4, "ipv4");
	}
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
