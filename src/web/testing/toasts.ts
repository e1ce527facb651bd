import { screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";

/**
 * A toast by its text, once it has entered. Sonner mounts each toast transparent
 * (`data-mounted="false"`, opacity 0 in its stylesheet) and shows it from an effect, so a toast
 * found the moment it appears is not visible yet; on a loaded machine that moment is long enough
 * for an assertion to see it.
 */
export async function findToast(text: string): Promise<HTMLElement> {
	const element = await screen.findByText(text);
	await waitFor(() =>
		expect(element.closest("[data-sonner-toast]")).toHaveAttribute("data-mounted", "true"),
	);
	return element;
}
