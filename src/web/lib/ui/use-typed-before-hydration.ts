import { type RefObject, useEffect, useRef } from "react";

/**
 * Text typed into a prerendered form before React hydrated the page stays in its fields, but the
 * component's state does not know it (React keeps the field as it finds it). On mount, hands each
 * named field's text to its setter, so what the person sees is what the form holds.
 */
export function useTypedBeforeHydration(
	formRef: RefObject<HTMLFormElement | null>,
	setters: Record<string, (value: string) => void>,
): void {
	const settersRef = useRef(setters);
	useEffect(() => {
		const form = formRef.current;
		if (!form) return;
		for (const [name, setValue] of Object.entries(settersRef.current)) {
			const field = form.elements.namedItem(name);
			const isTextField = field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement;
			if (isTextField && field.value !== "") setValue(field.value);
		}
	}, [formRef]);
}
