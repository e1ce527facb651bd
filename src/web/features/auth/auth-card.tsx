import type { ReactNode } from "react";

type AuthCardProps = {
	title: string;
	description: string;
	children: ReactNode;
	footer: ReactNode;
};

/** The card that frames the login and signup forms. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
	return (
		<div className="w-full max-w-md">
			<div className="rounded-2xl bg-white/95 p-6 shadow-card ring-1 ring-slate-200/80 sm:p-8">
				<div className="mb-6 text-center">
					<h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
					<p className="mt-1.5 text-sm text-slate-600">{description}</p>
				</div>
				{children}
			</div>
			<p className="mt-6 text-center text-sm text-slate-600">{footer}</p>
		</div>
	);
}
