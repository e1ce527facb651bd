import { ArrowLeft, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { adminAllGenerations, adminBadge } from "../../../shared/i18n/messages";
import { Badge } from "../../components/basics/badge";
import { getButtonClassName } from "../../components/basics/button";
import { AdminNav } from "./admin-nav";

type AdminPageFrameProps = {
	/** The title's icon, like <Users />. */
	icon: ReactNode;
	title: string;
	/** The line under the links between the screens. */
	description: ReactNode;
	/** Shows "All Generations" above the title. */
	hasHistoryLink?: boolean;
	children: ReactNode;
};

/** An administrator's screen: its title with the Admin badge, the links between them, and its body. */
export function AdminPageFrame({
	icon,
	title,
	description,
	hasHistoryLink = false,
	children,
}: AdminPageFrameProps) {
	return (
		<div className="space-y-6">
			{hasHistoryLink ? (
				<Link
					to={APP_PATHS.generations}
					className={`${getButtonClassName({ variant: "ghost", size: "sm" })} -ml-3`}
				>
					<ArrowLeft aria-hidden="true" className="size-4" />
					{adminAllGenerations()}
				</Link>
			) : null}
			<div>
				<div className="flex flex-wrap items-center gap-3">
					<h1 className="flex items-center gap-2 text-3xl font-semibold tracking-tight text-slate-900">
						{icon}
						{title}
					</h1>
					<Badge icon={<ShieldCheck aria-hidden="true" className="size-3.5" />}>
						{adminBadge()}
					</Badge>
				</div>
				<div className="mt-3">
					<AdminNav />
				</div>
				<p className="mt-2 text-sm text-slate-600">{description}</p>
			</div>
			{children}
		</div>
	);
}
