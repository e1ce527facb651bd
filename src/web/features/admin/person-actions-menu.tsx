import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { EllipsisVertical, Gauge, Trash2, UserCheck, UserX } from "lucide-react";
import { useRef } from "react";
import type { Person } from "../../../shared/admin/people";
import {
	adminMenuDelete,
	adminMenuDisable,
	adminMenuEnable,
	adminMenuQuotas,
	adminPersonActionsFor,
} from "../../../shared/i18n/messages";

/** An action on a person that waits for the administrator's confirmation. */
export type PendingPersonAction = { kind: "disable" | "enable" | "delete"; person: Person };

const MENU_ITEM_CLASS_NAME =
	"flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900";

/** A person's menu in their row: Quotas, and Disable or Enable and Delete account but for the administrator. */
export function PersonActionsMenu({
	person,
	onAction,
	onQuota,
}: {
	person: Person;
	onAction: (pending: PendingPersonAction, trigger: HTMLElement | null) => void;
	onQuota: (person: Person, trigger: HTMLElement | null) => void;
}) {
	const triggerRef = useRef<HTMLButtonElement>(null);
	return (
		<DropdownMenu.Root modal={false}>
			<DropdownMenu.Trigger
				ref={triggerRef}
				aria-label={adminPersonActionsFor({ email: person.email })}
				className="inline-flex size-9 cursor-pointer items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 data-[state=open]:bg-slate-100"
			>
				<EllipsisVertical aria-hidden="true" className="size-4" />
			</DropdownMenu.Trigger>
			<DropdownMenu.Portal>
				<DropdownMenu.Content
					align="end"
					sideOffset={4}
					className="z-menu w-56 rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-200 focus:outline-none"
				>
					<DropdownMenu.Item
						className={MENU_ITEM_CLASS_NAME}
						onSelect={() => onQuota(person, triggerRef.current)}
					>
						<Gauge aria-hidden="true" className="size-4" />
						{adminMenuQuotas()}
					</DropdownMenu.Item>
					{/* The administrator's own account can be neither disabled nor deleted. */}
					{person.isAdmin ? null : (
						<>
							{person.status === "active" ? (
								<DropdownMenu.Item
									className={MENU_ITEM_CLASS_NAME}
									onSelect={() => onAction({ kind: "disable", person }, triggerRef.current)}
								>
									<UserX aria-hidden="true" className="size-4" />
									{adminMenuDisable()}
								</DropdownMenu.Item>
							) : (
								<DropdownMenu.Item
									className={MENU_ITEM_CLASS_NAME}
									onSelect={() => onAction({ kind: "enable", person }, triggerRef.current)}
								>
									<UserCheck aria-hidden="true" className="size-4" />
									{adminMenuEnable()}
								</DropdownMenu.Item>
							)}
							<DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
							<DropdownMenu.Item
								className={`${MENU_ITEM_CLASS_NAME} data-[highlighted]:bg-red-50 data-[highlighted]:text-red-700`}
								onSelect={() => onAction({ kind: "delete", person }, triggerRef.current)}
							>
								<Trash2 aria-hidden="true" className="size-4" />
								{adminMenuDelete()}
							</DropdownMenu.Item>
						</>
					)}
				</DropdownMenu.Content>
			</DropdownMenu.Portal>
		</DropdownMenu.Root>
	);
}
