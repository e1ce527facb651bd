import { type ReactNode, useId } from "react";

/** One section of the account page: a titled card, named by its heading for assistive technology. */
export function Section({
	title,
	description,
	children,
}: {
	title: string;
	description?: ReactNode;
	children: ReactNode;
}) {
	const headingId = useId();
	return (
		<section
			aria-labelledby={headingId}
			className="rounded-2xl bg-white/90 p-5 shadow-card ring-1 ring-slate-200/80 sm:p-6"
		>
			<h2 id={headingId} className="text-lg font-semibold text-slate-900">
				{title}
			</h2>
			{description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
			<div className="mt-4">{children}</div>
		</section>
	);
}
