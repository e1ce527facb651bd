import { NavLink } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	adminNavAuditLog,
	adminNavLabel,
	adminNavPeople,
	adminNavShares,
	adminNavUsage,
} from "../../../shared/i18n/messages";
import { joinClassNames } from "../../lib/ui/class-names";

/** The administrator's screens, one link each; the current one marked. */
const ADMIN_LINKS: readonly { to: string; label: () => string }[] = [
	{ to: APP_PATHS.people, label: adminNavPeople },
	{ to: APP_PATHS["audit-log"], label: adminNavAuditLog },
	{ to: APP_PATHS.usage, label: adminNavUsage },
	{ to: APP_PATHS.shares, label: adminNavShares },
];

/** The links between the administrator's screens, at the top of each. */
export function AdminNav() {
	return (
		<nav aria-label={adminNavLabel()} className="flex flex-wrap gap-1">
			{ADMIN_LINKS.map((link) => (
				<NavLink
					key={link.to}
					to={link.to}
					className={({ isActive }) =>
						joinClassNames(
							"rounded-lg px-3 py-1.5 text-sm font-medium transition-colors",
							isActive
								? "bg-accent-50 text-accent-800 ring-1 ring-accent-200 ring-inset"
								: "text-slate-700 hover:bg-slate-900/5 hover:text-slate-900",
						)
					}
				>
					{link.label()}
				</NavLink>
			))}
		</nav>
	);
}
