import type { ReactNode } from "react";
import { joinClassNames } from "../../lib/ui/class-names";

type BadgeProps = {
	tone?: "accent" | "neutral";
	icon?: ReactNode;
	children: ReactNode;
	className?: string;
};

const TONE_CLASSES = {
	accent: "bg-accent-50 text-accent-700 ring-accent-200",
	neutral: "bg-slate-100 text-slate-700 ring-slate-200",
} as const;

export function Badge({ tone = "accent", icon, children, className }: BadgeProps) {
	return (
		<span
			className={joinClassNames(
				"inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset",
				TONE_CLASSES[tone],
				className,
			)}
		>
			{icon}
			{children}
		</span>
	);
}
