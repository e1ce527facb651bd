import { Compass, Home, Images } from "lucide-react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	appGoHome,
	appNotFoundDescription,
	appNotFoundTitle,
	appViewGenerations,
} from "../../../shared/i18n/messages";
import { getButtonClassName } from "../../components/basics/button";

export function NotFoundPage() {
	return (
		<div className="mx-auto flex max-w-lg flex-col items-center py-12 text-center sm:py-20">
			<span className="inline-flex size-12 items-center justify-center rounded-xl bg-accent-50 text-accent-700 ring-1 ring-accent-200 ring-inset">
				<Compass aria-hidden="true" className="size-6" />
			</span>
			<p className="mt-4 text-sm font-semibold text-accent-700">404</p>
			<h1 className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">
				{appNotFoundTitle()}
			</h1>
			<p className="mt-3 text-slate-600">{appNotFoundDescription()}</p>
			<div className="mt-8 flex flex-wrap justify-center gap-3">
				<Link to={APP_PATHS.generator} className={getButtonClassName()}>
					<Home aria-hidden="true" className="size-4" />
					{appGoHome()}
				</Link>
				<Link to={APP_PATHS.generations} className={getButtonClassName({ variant: "secondary" })}>
					<Images aria-hidden="true" className="size-4" />
					{appViewGenerations()}
				</Link>
			</div>
		</div>
	);
}
