import { orDivider } from "../../../shared/i18n/messages";

export function OrDivider() {
	return (
		<div className="my-6 flex items-center gap-3 text-xs font-medium tracking-wide text-slate-600 uppercase">
			<span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
			{orDivider()}
			<span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
		</div>
	);
}
