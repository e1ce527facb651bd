import { ShieldCheck } from "lucide-react";
import { Badge } from "../../components/badge";

type GenerationsPageProps = {
	/** The admin sees every user's generations, and the page says so. */
	isAdmin: boolean;
};

/** The generations history. A placeholder until the gallery itself lands. */
export function GenerationsPage({ isAdmin }: GenerationsPageProps) {
	return (
		<div className="space-y-6">
			<div className="flex flex-wrap items-center gap-3">
				<h1 className="text-3xl font-semibold tracking-tight text-slate-900">
					{isAdmin ? "All Generations" : "Saved Generations"}
				</h1>
				{isAdmin ? (
					<Badge icon={<ShieldCheck aria-hidden="true" className="size-3.5" />}>Admin</Badge>
				) : null}
			</div>
			{isAdmin ? (
				<p className="flex items-start gap-2 rounded-xl bg-accent-50 px-4 py-3 text-sm text-accent-800 ring-1 ring-accent-200 ring-inset">
					<ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
					<span>
						<strong className="font-semibold">Admin View</strong>: you are seeing the generations of
						every user.
					</span>
				</p>
			) : null}
			<p className="text-slate-600">Your saved AI generations will appear here.</p>
		</div>
	);
}
