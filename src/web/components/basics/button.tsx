import type { ButtonHTMLAttributes, Ref } from "react";
import { joinClassNames } from "../../lib/ui/class-names";
import { Spinner } from "./spinner";

type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";
export type ButtonSize = "sm" | "md" | "lg";

type ButtonLook = {
	variant?: ButtonVariant;
	size?: ButtonSize;
	isFullWidth?: boolean;
};

const VARIANT_CLASSES: Record<ButtonVariant, string> = {
	primary:
		"bg-accent-600 text-white shadow-sm shadow-accent-600/20 hover:bg-accent-700 active:bg-accent-800",
	secondary:
		"bg-white text-slate-800 shadow-sm ring-1 ring-slate-200 ring-inset hover:bg-slate-50 hover:ring-slate-300",
	ghost: "text-slate-700 hover:bg-slate-900/5 hover:text-slate-900",
	danger: "bg-red-600 text-white shadow-sm hover:bg-red-700 active:bg-red-800",
};

const SIZE_CLASSES: Record<ButtonSize, string> = {
	sm: "h-9 gap-1.5 rounded-lg px-3 text-sm",
	md: "h-10 gap-2 rounded-lg px-4 text-sm",
	lg: "h-11 gap-2 rounded-xl px-5 text-base",
};

/** The classes of a button, for links and Radix parts that must look like one. */
export function getButtonClassName({
	variant = "primary",
	size = "md",
	isFullWidth = false,
}: ButtonLook = {}): string {
	return joinClassNames(
		"inline-flex shrink-0 cursor-pointer items-center justify-center font-medium whitespace-nowrap transition-colors select-none",
		"disabled:cursor-not-allowed disabled:opacity-60",
		VARIANT_CLASSES[variant],
		SIZE_CLASSES[size],
		isFullWidth && "w-full",
	);
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> &
	ButtonLook & {
		isBusy?: boolean;
		ref?: Ref<HTMLButtonElement>;
	};

export function Button({
	variant,
	size,
	isFullWidth,
	isBusy = false,
	className,
	type = "button",
	disabled,
	children,
	...props
}: ButtonProps) {
	return (
		<button
			type={type}
			className={joinClassNames(getButtonClassName({ variant, size, isFullWidth }), className)}
			disabled={disabled || isBusy}
			aria-busy={isBusy || undefined}
			{...props}
		>
			{isBusy ? <Spinner size="sm" /> : null}
			{children}
		</button>
	);
}
