/** Where the server serves a stored image (files/file-routes.ts's `/api/images`), by its key. */
export function imageUrl(key: string): string {
	return `/api/images/${key}`;
}
