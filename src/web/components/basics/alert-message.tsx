import { CircleAlert } from "lucide-react";

type AlertMessageProps = {
	message: string | null;
	className?: string;
};

/**
 * A screen's alert region. It stays mounted while empty so screen readers announce a message as
 * soon as it appears.
 */
export function AlertMessage({ message, className }: AlertMessageProps) {
	return (
		<div role="alert" className={className}>
			{message ? (
				<p className="flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2.5 text-sm text-red-800 ring-1 ring-red-200 ring-inset">
					<CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
					<span>{message}</span>
				</p>
			) : null}
		</div>
	);
}
