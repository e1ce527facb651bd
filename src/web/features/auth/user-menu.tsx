import * as AlertDialog from "@radix-ui/react-alert-dialog";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import {
	ChevronDown,
	LogOut,
	Monitor,
	Moon,
	ScrollText,
	Sun,
	Trash2,
	UserRound,
	Users,
} from "lucide-react";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { ThemeChoice } from "../../../shared/account/account-settings";
import { emailLocalPart } from "../../../shared/account/session";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	adminNavAuditLog,
	adminNavPeople,
	authCancel,
	authMenuAccount,
	authMenuFreeAccount,
	authMenuLabel,
	authMenuTheme,
	authMenuThemeDark,
	authMenuThemeLight,
	authMenuThemeSystem,
	authMenuTrash,
	authSignOut,
	authSignOutDescription,
	authSignOutTitle,
} from "../../../shared/i18n/messages";
import { getButtonClassName } from "../../components/basics/button";
import { DialogFrame } from "../../components/basics/dialog-frame";
import { Spinner } from "../../components/basics/spinner";
import { readAuthErrorMessage, SIGN_OUT_FAILED_MESSAGE } from "../../lib/account/auth-errors";
import { useLanguageChoice } from "../../lib/account/language-choice";
import { useThemeChoice } from "../../lib/account/theme";
import { AdminClaimNotice } from "./admin-claim-notice";
import { useAuth } from "./auth-context";
import { LanguageChoices } from "./language-choices";
import { type MenuChoice, MenuChoices } from "./menu-choices";

/** The uppercase first letter of an e-mail, shown as the user's avatar. */
function getUserInitial(email: string): string {
	return email.trim().charAt(0).toUpperCase() || "?";
}

function Avatar({ initial, size }: { initial: string; size: "sm" | "md" }) {
	return (
		<span
			aria-hidden="true"
			className={
				size === "sm"
					? "inline-flex size-8 items-center justify-center rounded-full bg-gradient-to-br from-accent-500 to-accent-700 text-sm font-semibold text-white"
					: "inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-accent-500 to-accent-700 text-base font-semibold text-white"
			}
		>
			{initial}
		</span>
	);
}

/** System, Light or Dark: applied at once, kept on this device and in the account. */
function ThemeChoices({
	choice,
	onChoose,
}: {
	choice: ThemeChoice;
	onChoose: (choice: ThemeChoice) => void;
}) {
	const items: MenuChoice<ThemeChoice>[] = [
		{ choice: "system", label: authMenuThemeSystem(), icon: Monitor },
		{ choice: "light", label: authMenuThemeLight(), icon: Sun },
		{ choice: "dark", label: authMenuThemeDark(), icon: Moon },
	];
	return (
		<MenuChoices
			label={authMenuTheme()}
			items={items}
			choice={choice}
			onChoose={onChoose}
			isKeptOpen
		/>
	);
}

type UserMenuProps = {
	/** Shows a sign-out failure; the menu has no alert region of its own. */
	onError: (message: string) => void;
};

/**
 * The signed-in user's menu: who they are, their plan, the theme, and Sign Out behind a
 * confirmation.
 */
export function UserMenu({ onError }: UserMenuProps) {
	const { user, isAdmin, signOut } = useAuth();
	const navigate = useNavigate();
	const [isConfirmOpen, setIsConfirmOpen] = useState(false);
	const [isSigningOut, setIsSigningOut] = useState(false);
	const isOpeningConfirm = useRef(false);
	const triggerRef = useRef<HTMLButtonElement>(null);
	// Here, not in the menu's content: the account's theme applies on every signed-in page, as soon
	// as this chunk loads, not once the menu opens.
	const theme = useThemeChoice(onError);
	const language = useLanguageChoice(onError);

	if (!user) return null;
	const initial = getUserInitial(user.email);
	const localPart = emailLocalPart(user.email);

	async function confirmSignOut() {
		setIsSigningOut(true);
		try {
			// Leave first: on a signed-in-only screen, clearing the session would redirect to /login.
			await navigate(APP_PATHS.generator);
			await signOut();
			setIsConfirmOpen(false);
		} catch (error) {
			setIsConfirmOpen(false);
			onError(readAuthErrorMessage(error, SIGN_OUT_FAILED_MESSAGE));
		} finally {
			setIsSigningOut(false);
		}
	}

	return (
		<>
			{/* Here rather than in the layout: this chunk loads for every signed-in page anyway, and the
			    first page stays within its budget (decision 005). */}
			{user?.isAdminUnclaimed ? <AdminClaimNotice email={user.email} /> : null}
			<DropdownMenu.Root modal={false}>
				<DropdownMenu.Trigger
					ref={triggerRef}
					aria-label={authMenuLabel()}
					className="inline-flex cursor-pointer items-center gap-1 rounded-full p-0.5 pr-1.5 text-slate-600 ring-1 ring-slate-200 transition-colors hover:bg-slate-50 hover:text-slate-900 data-[state=open]:bg-slate-100"
				>
					<Avatar initial={initial} size="sm" />
					<ChevronDown aria-hidden="true" className="size-4" />
				</DropdownMenu.Trigger>
				{/* Not portalled: the menu stays inside the header's landmark for screen readers. */}
				<DropdownMenu.Content
					align="end"
					sideOffset={8}
					onCloseAutoFocus={(event) => {
						// Focus moves into the confirmation dialog instead of back to the trigger.
						if (isOpeningConfirm.current) {
							event.preventDefault();
							isOpeningConfirm.current = false;
						}
					}}
					className="z-menu w-64 rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-200 focus:outline-none"
				>
					<div className="flex items-center gap-3 px-2.5 py-2">
						<Avatar initial={initial} size="md" />
						<div className="min-w-0">
							<p className="truncate text-sm font-semibold text-slate-900">{localPart}</p>
							<p className="text-xs text-slate-600">{authMenuFreeAccount()}</p>
						</div>
					</div>
					<DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
					<DropdownMenu.Item
						onSelect={() => void navigate(APP_PATHS.trash)}
						className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900"
					>
						<Trash2 aria-hidden="true" className="size-4" />
						{authMenuTrash()}
					</DropdownMenu.Item>
					{isAdmin ? (
						<DropdownMenu.Item
							onSelect={() => void navigate(APP_PATHS["audit-log"])}
							className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900"
						>
							<ScrollText aria-hidden="true" className="size-4" />
							{adminNavAuditLog()}
						</DropdownMenu.Item>
					) : null}
					{isAdmin ? (
						<DropdownMenu.Item
							onSelect={() => void navigate(APP_PATHS.people)}
							className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900"
						>
							<Users aria-hidden="true" className="size-4" />
							{adminNavPeople()}
						</DropdownMenu.Item>
					) : null}
					<DropdownMenu.Item
						onSelect={() => void navigate(APP_PATHS.account)}
						className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900"
					>
						<UserRound aria-hidden="true" className="size-4" />
						{authMenuAccount()}
					</DropdownMenu.Item>
					<DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
					<ThemeChoices choice={theme.choice} onChoose={theme.choose} />
					<DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
					<LanguageChoices choice={language.choice} onChoose={language.choose} />
					<DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
					<DropdownMenu.Item
						onSelect={() => {
							isOpeningConfirm.current = true;
							setIsConfirmOpen(true);
						}}
						className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-red-50 data-[highlighted]:text-red-700"
					>
						<LogOut aria-hidden="true" className="size-4" />
						{authSignOut()}
					</DropdownMenu.Item>
				</DropdownMenu.Content>
			</DropdownMenu.Root>

			<DialogFrame
				kind="alert"
				isOpen={isConfirmOpen}
				onOpenChange={setIsConfirmOpen}
				// The dialog has no trigger of its own: focus goes back to the menu button.
				returnFocusRef={triggerRef}
				width="sm"
				isBackdropBlurred
				title={authSignOutTitle()}
				description={authSignOutDescription()}
				footer={
					<>
						<AlertDialog.Cancel className={getButtonClassName({ variant: "secondary" })}>
							{authCancel()}
						</AlertDialog.Cancel>
						<AlertDialog.Action
							className={getButtonClassName({ variant: "danger" })}
							disabled={isSigningOut}
							onClick={(event) => {
								// Keep the dialog open until the server has answered.
								event.preventDefault();
								void confirmSignOut();
							}}
						>
							{isSigningOut ? <Spinner size="sm" /> : null}
							{authSignOut()}
						</AlertDialog.Action>
					</>
				}
			/>
		</>
	);
}
