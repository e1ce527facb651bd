/** Joins the truthy class names, so components can add conditional classes without a library. */
export function joinClassNames(...names: Array<string | false | null | undefined>): string {
	return names.filter(Boolean).join(" ");
}
