import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, LogOut, MonitorSmartphone, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { SessionUser } from "../../../shared/account/session";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	accountDataDescription,
	accountDataExport,
	accountDataTitle,
	accountDeleteAdministrator,
	accountDeleteExplanation,
	accountDeleteTitle,
	accountDevicesDescription,
	accountDevicesLastActive,
	accountDevicesLoading,
	accountDevicesSignedOutOthers,
	accountDevicesSignOutOthers,
	accountDevicesThisDevice,
	accountDevicesTitle,
	accountIntro,
	accountPasswordForgotLink,
	accountPasswordGoogleOnly,
	accountPasswordLoading,
	accountPasswordTitle,
	accountProfileAccount,
	accountProfileEmail,
	accountProfileNotVerified,
	accountProfileTitle,
	accountProfileVerified,
	accountProfileVerifyHint,
	accountTitle,
	accountWebhooksDescription,
	accountWebhooksTitle,
	authMenuFreeAccount,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Badge } from "../../components/basics/badge";
import { Button, getButtonClassName } from "../../components/basics/button";
import { Spinner } from "../../components/basics/spinner";
import {
	EXPORT_URL,
	listDeviceSessions,
	readHasPassword,
	signOutOtherDevices,
} from "../../lib/account/account-requests";
import { formatDateTime } from "../../lib/ui/date-format";
import { ELEMENT_MARKER, splitAtElements } from "../../lib/ui/message-parts";
import { Section } from "./account-section";
import { ApiTokensSection } from "./api-tokens-section";
import { ChangePasswordForm } from "./change-password-form";
import { DeleteAccountDialog } from "./delete-account-dialog";
import { describeDevice } from "./device-name";
import { PushSection } from "./push-section";
import { ResendVerificationButton } from "./resend-verification-button";
import { SharedLinksSection } from "./shared-links-section";
import { StylesSection } from "./styles-section";
import { WebhooksSection } from "./webhooks-section";

/** The server variable naming the administrator (a name, never translated). */
const ADMIN_VARIABLE = "ADMIN_EMAIL";

const SESSIONS_QUERY_KEY = ["account", "sessions"] as const;
const HAS_PASSWORD_QUERY_KEY = ["account", "has-password"] as const;

type AccountPageProps = {
	user: SessionUser;
	currentSessionId: string;
	isEmailVerificationRequired: boolean;
	/** Called once the account is gone: forget the session and leave the page. */
	onDeleted: () => Promise<void>;
};

function DevicesSection({ currentSessionId }: { currentSessionId: string }) {
	const queryClient = useQueryClient();
	const sessions = useQuery({ queryKey: SESSIONS_QUERY_KEY, queryFn: listDeviceSessions });
	const [isSigningOut, setIsSigningOut] = useState(false);
	const [message, setMessage] = useState<string | null>(null);
	const [errorMessage, setErrorMessage] = useState<string | null>(null);
	const others = (sessions.data ?? []).filter((session) => session.id !== currentSessionId);

	async function signOutOthers() {
		setIsSigningOut(true);
		setMessage(null);
		setErrorMessage(null);
		try {
			await signOutOtherDevices();
			setMessage(accountDevicesSignedOutOthers());
			await queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
		} catch (error) {
			setErrorMessage(error instanceof Error ? error.message : null);
		} finally {
			setIsSigningOut(false);
		}
	}

	return (
		<Section title={accountDevicesTitle()} description={accountDevicesDescription()}>
			{sessions.isPending ? (
				<Spinner label={accountDevicesLoading()} />
			) : sessions.isError ? (
				<AlertMessage message={sessions.error.message} />
			) : (
				<ul className="divide-y divide-slate-200">
					{[...sessions.data]
						.sort((a, b) => Number(b.id === currentSessionId) - Number(a.id === currentSessionId))
						.map((session) => (
							<li key={session.id} className="flex items-start gap-3 py-3">
								<MonitorSmartphone aria-hidden="true" className="mt-0.5 size-5 text-slate-500" />
								<div className="min-w-0">
									<p className="text-sm font-medium text-slate-900">
										{describeDevice(session.userAgent)}
										{session.id === currentSessionId ? (
											<span className="ml-2 text-xs font-semibold text-accent-700">
												{accountDevicesThisDevice()}
											</span>
										) : null}
									</p>
									<p className="text-xs text-slate-600">
										{session.ipAddress ? `${session.ipAddress} · ` : ""}
										{accountDevicesLastActive({ date: formatDateTime(session.lastActiveAt) })}
									</p>
								</div>
							</li>
						))}
				</ul>
			)}
			<div className="mt-4 space-y-2">
				<Button
					variant="secondary"
					isBusy={isSigningOut}
					disabled={sessions.isPending || others.length === 0}
					onClick={() => void signOutOthers()}
				>
					<LogOut aria-hidden="true" className="size-4" />
					{accountDevicesSignOutOthers()}
				</Button>
				<div role="status" className="text-sm text-emerald-800">
					{message}
				</div>
				<AlertMessage message={errorMessage} />
			</div>
		</Section>
	);
}

function GoogleOnlyPassword() {
	const [before, after] = splitAtElements(accountPasswordGoogleOnly({ link: ELEMENT_MARKER }));
	return (
		<p className="text-sm text-slate-600">
			{before}
			<Link
				to={APP_PATHS["forgot-password"]}
				className="font-medium text-accent-700 underline-offset-4 hover:underline"
			>
				{accountPasswordForgotLink()}
			</Link>
			{after}
		</p>
	);
}

function AdministratorNotDeletable() {
	const [before, after] = splitAtElements(accountDeleteAdministrator({ variable: ELEMENT_MARKER }));
	return (
		<p className="text-sm text-slate-600">
			{before}
			<code className="rounded bg-slate-100 px-1 py-0.5 text-xs">{ADMIN_VARIABLE}</code>
			{after}
		</p>
	);
}

function PasswordSection() {
	const queryClient = useQueryClient();
	const hasPassword = useQuery({ queryKey: HAS_PASSWORD_QUERY_KEY, queryFn: readHasPassword });
	return (
		<Section title={accountPasswordTitle()}>
			{hasPassword.isPending ? (
				<Spinner label={accountPasswordLoading()} />
			) : hasPassword.data === false ? (
				<GoogleOnlyPassword />
			) : (
				<ChangePasswordForm
					onChanged={() => void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY })}
				/>
			)}
		</Section>
	);
}

/** The account page: who you are, your password, your devices, your API tokens, your data. */
export function AccountPage({
	user,
	currentSessionId,
	isEmailVerificationRequired,
	onDeleted,
}: AccountPageProps) {
	return (
		<div className="mx-auto max-w-3xl space-y-6">
			<div>
				<h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">
					{accountTitle()}
				</h1>
				<p className="mt-1 text-sm text-slate-600">{accountIntro()}</p>
			</div>

			<Section title={accountProfileTitle()}>
				<dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
					<dt className="font-medium text-slate-600">{accountProfileEmail()}</dt>
					<dd className="flex flex-wrap items-center gap-2 text-slate-900">
						<span className="break-all">{user.email}</span>
						{user.emailVerified ? (
							<Badge icon={<ShieldCheck aria-hidden="true" className="size-3.5" />}>
								{accountProfileVerified()}
							</Badge>
						) : isEmailVerificationRequired ? (
							<span className="text-xs font-semibold text-amber-800">
								{accountProfileNotVerified()}
							</span>
						) : null}
					</dd>
					<dt className="font-medium text-slate-600">{accountProfileAccount()}</dt>
					<dd className="text-slate-900">{authMenuFreeAccount()}</dd>
				</dl>
				{isEmailVerificationRequired && !user.emailVerified ? (
					<div className="mt-4 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
						<p className="mb-3">{accountProfileVerifyHint({ email: user.email })}</p>
						<ResendVerificationButton email={user.email} />
					</div>
				) : null}
			</Section>

			<PasswordSection />
			<DevicesSection currentSessionId={currentSessionId} />
			<PushSection />
			<SharedLinksSection />
			<StylesSection />
			<ApiTokensSection />

			<Section title={accountWebhooksTitle()} description={accountWebhooksDescription()}>
				<WebhooksSection />
			</Section>

			<Section title={accountDataTitle()} description={accountDataDescription()}>
				<a href={EXPORT_URL} download className={getButtonClassName({ variant: "secondary" })}>
					<Download aria-hidden="true" className="size-4" />
					{accountDataExport()}
				</a>
			</Section>

			<Section title={accountDeleteTitle()}>
				{user.isAdmin ? (
					<AdministratorNotDeletable />
				) : (
					<div className="space-y-3">
						<p className="text-sm text-slate-600">{accountDeleteExplanation()}</p>
						<DeleteAccountDialog email={user.email} onDeleted={onDeleted} />
					</div>
				)}
			</Section>
		</div>
	);
}
