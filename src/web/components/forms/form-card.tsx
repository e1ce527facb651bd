import type { ReactNode } from "react";

type FormCardProps = {
	title: string;
	description: string;
	children: ReactNode;
	footer?: ReactNode;
};

/** The centred card that frames a form of its own: login, signup, password reset. */
export function FormCard({ title, description, children, footer }: FormCardProps) {
	return (
		<div className="w-full max-w-md">
			<div className="rounded-2xl bg-white/95 p-6 shadow-card ring-1 ring-slate-200/80 sm:p-8">
				<div className="mb-6 text-center">
					<h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
					<p className="mt-1.5 text-sm text-slate-600">{description}</p>
				</div>
				{children}
			</div>
			{footer ? <p className="mt-6 text-center text-sm text-slate-600">{footer}</p> : null}
		</div>
	);
}
