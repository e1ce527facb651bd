import { lookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { Agent } from "undici";
import { isPrivateAddress, unbracketHostname } from "./private-address";

/** Every address a hostname resolves to, from the system's resolver. */
export async function lookupAddresses(hostname: string): Promise<string[]> {
	const answers = await lookup(hostname, { all: true });
	return answers.map((answer) => answer.address);
}

/**
 * An HTTP agent whose connections only reach hosts that pass the private-network rule. The
 * connection resolves the host itself and checks that answer, so a DNS server that answers
 * "public" to an earlier check and "private" to the connection (rebinding) gets nowhere.
 */
export function createGuardedAgent(options: {
	/** A host (as the connection names it) that may be on a private network. */
	isAllowedHost: (host: string) => boolean;
	resolveHost: (hostname: string) => Promise<string[]>;
	/** The error a refused connection fails with. */
	refuse: (host: string, privateAddress: string) => Error;
}): Agent {
	const lookupChecked: LookupFunction = (hostname, lookupOptions, callback) => {
		const host = unbracketHostname(hostname);
		const answer = isIP(host) !== 0 ? Promise.resolve([host]) : options.resolveHost(host);
		answer.then(
			(addresses) => {
				if (addresses.length === 0) {
					callback(new Error(`${host} resolved to no address`), "", 4);
					return;
				}
				const privateAddress = addresses.find(isPrivateAddress);
				if (privateAddress !== undefined && !options.isAllowedHost(host)) {
					callback(options.refuse(host, privateAddress), "", 4);
					return;
				}
				const entries = addresses.map((address) => ({ address, family: isIP(address) || 4 }));
				const first = entries[0] ?? { address: "", family: 4 };
				if (lookupOptions.all)
					(callback as unknown as (error: null, all: typeof entries) => void)(null, entries);
				else callback(null, first.address, first.family);
			},
			(error: unknown) => callback(error as NodeJS.ErrnoException, "", 4),
		);
	};
	return new Agent({ connect: { lookup: lookupChecked } });
}
