import { Sparkles } from "lucide-react";
import { useNavigate } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";

/** The product's name, the same in every language. */
const PRODUCT_NAME = "Atelier";

/** The product title; a button that takes you home (SPEC.md section 2, Header). */
export function BrandButton() {
	const navigate = useNavigate();
	return (
		<button
			type="button"
			onClick={() => void navigate(APP_PATHS.generator)}
			className="group inline-flex cursor-pointer items-center gap-2 rounded-lg py-1 pr-1.5"
		>
			<span className="inline-flex size-8 items-center justify-center rounded-lg bg-gradient-to-br from-accent-500 to-accent-700 text-white shadow-sm shadow-accent-600/30 transition-transform group-hover:scale-105">
				<Sparkles aria-hidden="true" className="size-4" />
			</span>
			<span className="text-lg font-semibold tracking-tight text-slate-900">{PRODUCT_NAME}</span>
		</button>
	);
}
