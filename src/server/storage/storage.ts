/** A stored object as read back: its bytes and content type. */
export type StoredObject = {
	data: Uint8Array;
	contentType: string;
};

/**
 * Where generated images live. Keys are slash-separated relative paths made by the server
 * (never from user input), such as `generations/<id>/0.webp`.
 */
export interface Storage {
	readonly kind: string;
	put(key: string, data: Uint8Array, contentType: string): Promise<void>;
	/** The object, or undefined when there is none under that key. */
	get(key: string): Promise<StoredObject | undefined>;
	/** Deletes every key given; keys that do not exist are ignored. */
	delete(keys: readonly string[]): Promise<void>;
	/** Deletes every object whose key starts with `prefix` (a folder such as `generations/<id>/`). */
	deletePrefix(prefix: string): Promise<void>;
	/** Every key under a folder such as `generations/`, a page at a time, in no promised order. */
	listKeys(prefix: string): AsyncIterable<string[]>;
	/**
	 * A URL the store itself serves the object from to anyone holding it, for `seconds` (S3's
	 * presigned GET); absent where the store serves nothing (local files: storage/signed-urls.ts
	 * signs a route of ours instead).
	 */
	presignGet?(key: string, seconds: number): Promise<string>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

/** Throws unless the key is a plain relative path, so no key can escape its storage root. */
export function assertValidKey(key: string): void {
	if (!KEY_PATTERN.test(key) || key.split("/").some((part) => part === "." || part === "..")) {
		throw new Error(`Invalid storage key: ${key}`);
	}
}
