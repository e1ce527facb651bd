import { joinClassNames } from "../../lib/ui/class-names";

const SIZE_CLASSES = {
	sm: "size-4 border-2",
	md: "size-6 border-2",
	lg: "size-8 border-[3px]",
} as const;

type SpinnerProps = {
	size?: keyof typeof SIZE_CLASSES;
	/** When given, the spinner is announced as a status with this text; otherwise it is decoration. */
	label?: string;
	className?: string;
};

export function Spinner({ size = "md", label, className }: SpinnerProps) {
	const circle = (
		<span
			aria-hidden="true"
			className={joinClassNames(
				"inline-block animate-spin rounded-full border-current border-r-transparent",
				SIZE_CLASSES[size],
				className,
			)}
		/>
	);
	if (!label) return circle;
	return (
		<span role="status" className="inline-flex items-center">
			{circle}
			<span className="sr-only">{label}</span>
		</span>
	);
}
