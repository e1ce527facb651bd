import {
	DeleteObjectsCommand,
	GetObjectCommand,
	ListObjectsV2Command,
	NoSuchKey,
	PutObjectCommand,
	S3Client,
	S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { assertValidKey, type Storage } from "./storage";

type S3StorageConfig = {
	bucket: string;
	region: string;
	/** For S3-compatible services (MinIO, R2, Ceph...); unset for AWS. */
	endpoint?: string;
	accessKeyId?: string;
	secretAccessKey?: string;
	/** Most self-hosted services want path-style URLs (`endpoint/bucket/key`). */
	forcePathStyle: boolean;
	/** Put every key under this folder of the bucket, e.g. `atelier/`. */
	prefix: string;
};

/** Images in an S3-compatible bucket, so several server processes share one image store. */
export function createS3Storage(config: S3StorageConfig, client?: S3Client): Storage {
	// On Node older than 22 the SDK's first client warns (NodeVersionSupportWarning) that SDK
	// releases from January 2027 on need Node 22. That is safe to silence: package.json pins
	// @aws-sdk/client-s3 to a release whose engines are node >=20, which covers every Node that
	// Atelier supports (>=20.19); docs/decisions/008-aws-sdk-node-20.md says when to lift the pin.
	// An operator's own value of the variable is kept.
	process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
	const s3 =
		client ??
		new S3Client({
			region: config.region,
			forcePathStyle: config.forcePathStyle,
			...(config.endpoint ? { endpoint: config.endpoint } : {}),
			...(config.accessKeyId && config.secretAccessKey
				? {
						credentials: {
							accessKeyId: config.accessKeyId,
							secretAccessKey: config.secretAccessKey,
						},
					}
				: {}),
		});
	const prefix = config.prefix.replace(/^\/+/, "");
	const objectKey = (key: string) => {
		assertValidKey(key);
		return `${prefix}${key}`;
	};

	const deleteObjectKeys = async (keys: string[]) => {
		// DeleteObjects takes at most 1000 keys a call.
		for (let start = 0; start < keys.length; start += 1000) {
			const batch = keys.slice(start, start + 1000);
			const result = await s3.send(
				new DeleteObjectsCommand({
					Bucket: config.bucket,
					Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
				}),
			);
			const failed = result.Errors?.filter((error) => error.Code !== "NoSuchKey") ?? [];
			if (failed.length > 0) {
				throw new Error(
					`Could not delete ${failed.length} object(s) from ${config.bucket}: ${failed[0]?.Code} ${failed[0]?.Message}`,
				);
			}
		}
	};

	/** The bucket's keys (with the configured prefix) under a folder, one list page at a time. */
	async function* listObjectKeys(folder: string): AsyncGenerator<string[]> {
		const listPrefix = `${objectKey(folder.replace(/\/+$/, ""))}/`;
		let token: string | undefined;
		do {
			const page = await s3.send(
				new ListObjectsV2Command({
					Bucket: config.bucket,
					Prefix: listPrefix,
					...(token ? { ContinuationToken: token } : {}),
				}),
			);
			yield (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
			token = page.IsTruncated ? page.NextContinuationToken : undefined;
		} while (token);
	}

	return {
		kind: "s3",
		async put(key, data, contentType) {
			await s3.send(
				new PutObjectCommand({
					Bucket: config.bucket,
					Key: objectKey(key),
					Body: data,
					ContentType: contentType,
					// Keys never change content: any cache may keep them.
					CacheControl: "private, max-age=31536000, immutable",
				}),
			);
		},
		async get(key) {
			try {
				const result = await s3.send(
					new GetObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }),
				);
				if (!result.Body) return undefined;
				return {
					data: await result.Body.transformToByteArray(),
					contentType: result.ContentType ?? "application/octet-stream",
				};
			} catch (error) {
				if (error instanceof NoSuchKey) return undefined;
				if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
					return undefined;
				throw error;
			}
		},
		async delete(keys) {
			if (keys.length === 0) return;
			await deleteObjectKeys(keys.map(objectKey));
		},
		async deletePrefix(folder) {
			for await (const keys of listObjectKeys(folder)) {
				if (keys.length > 0) await deleteObjectKeys(keys);
			}
		},
		async *listKeys(folder) {
			for await (const keys of listObjectKeys(folder)) {
				yield keys.map((key) => key.slice(prefix.length));
			}
		},
		presignGet(key, seconds) {
			// Signed with the configured credentials, for this one object, read-only, until `seconds`.
			return getSignedUrl(
				s3,
				new GetObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }),
				{ expiresIn: seconds },
			);
		},
	};
}
