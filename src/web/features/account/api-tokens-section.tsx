import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import {
	API_TOKEN_LIFETIMES_DAYS,
	API_TOKEN_NAME_MAX_LENGTH,
	API_TOKEN_SCOPES,
	type ApiToken,
	type ApiTokenScope,
	apiTokenLimitMessage,
	type CreatedApiToken,
	MAX_ACTIVE_API_TOKENS,
} from "../../../shared/account/api-tokens";
import {
	accountCopied,
	accountCopy,
	accountCreatedOn,
	accountDone,
	accountExpiresOn,
	accountNeverExpires,
	accountRevoke,
	accountTokensApiReference,
	accountTokensCopyFailed,
	accountTokensCreate,
	accountTokensCreateForm,
	accountTokensDescription,
	accountTokensExpiry,
	accountTokensInDays,
	accountTokensLastUsed,
	accountTokensList,
	accountTokensLoading,
	accountTokensName,
	accountTokensNameHint,
	accountTokensNever,
	accountTokensNeverUsed,
	accountTokensNewToken,
	accountTokensNone,
	accountTokensRevokeDescription,
	accountTokensRevokeNamed,
	accountTokensRevokeTitle,
	accountTokensScopeDelete,
	accountTokensScopeGenerate,
	accountTokensScopeOrganize,
	accountTokensScopeRead,
	accountTokensScopeShare,
	accountTokensScopes,
	accountTokensTitle,
	accountTokensYourToken,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Badge } from "../../components/basics/badge";
import { Button, getButtonClassName } from "../../components/basics/button";
import { ConfirmDialog } from "../../components/basics/confirm-dialog";
import { Spinner } from "../../components/basics/spinner";
import { CopyField } from "../../components/forms/copy-field";
import { TextField } from "../../components/forms/text-field";
import { createApiToken, listApiTokens, revokeApiToken } from "../../lib/account/account-requests";
import { formatDateTime } from "../../lib/ui/date-format";
import { ELEMENT_MARKER, splitAtElements } from "../../lib/ui/message-parts";
import { Section } from "./account-section";

const TOKENS_QUERY_KEY = ["account", "api-tokens"] as const;

// What each scope allows; the scope's own name is the API's (a script writes it), never translated.
const SCOPE_DESCRIPTIONS: Record<ApiTokenScope, () => string> = {
	generate: accountTokensScopeGenerate,
	read: accountTokensScopeRead,
	delete: accountTokensScopeDelete,
	organize: accountTokensScopeOrganize,
	share: accountTokensScopeShare,
};

const NEVER = "never";

/** The header a script sends its token in (HTTP's words, never translated). */
const AUTHORIZATION_HEADER = "Authorization: Bearer <token>";

/** Tokens that have not expired, which MAX_ACTIVE_API_TOKENS counts. */
function countActiveTokens(tokens: ApiToken[], now = Date.now()): number {
	return tokens.filter((token) => token.expiresAt === null || Date.parse(token.expiresAt) > now)
		.length;
}

function describeExpiry(token: ApiToken): string {
	return token.expiresAt
		? accountExpiresOn({ date: formatDateTime(token.expiresAt) })
		: accountNeverExpires();
}

/** The new token, shown this once, with a button that copies it. */
function NewToken({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
	return (
		<div className="rounded-lg bg-emerald-50 p-4 ring-1 ring-emerald-200 ring-inset">
			<p className="text-sm font-medium text-emerald-900">
				{accountTokensYourToken({ name: created.name })}
			</p>
			<CopyField
				label={accountTokensNewToken()}
				isLabelHidden
				value={created.token}
				copyLabel={accountCopy()}
				copiedLabel={accountCopied()}
				copyFailedMessage={accountTokensCopyFailed()}
			/>
			<Button className="mt-3" variant="secondary" onClick={onDone}>
				{accountDone()}
			</Button>
		</div>
	);
}

function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedApiToken) => void }) {
	const [name, setName] = useState("");
	const [scopes, setScopes] = useState<ApiTokenScope[]>(["generate", "read"]);
	const [expiry, setExpiry] = useState<string>("90");
	const create = useMutation({ mutationFn: createApiToken, onSuccess: onCreated });

	function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		create.mutate(
			{
				name: name.trim(),
				scopes,
				// "never", or a lifetime the list offers.
				expiresInDays: API_TOKEN_LIFETIMES_DAYS.find((days) => String(days) === expiry) ?? null,
			},
			{ onSuccess: () => setName("") },
		);
	}

	function toggleScope(scope: ApiTokenScope, isChecked: boolean) {
		setScopes((current) =>
			isChecked
				? API_TOKEN_SCOPES.filter((entry) => entry === scope || current.includes(entry))
				: current.filter((entry) => entry !== scope),
		);
	}

	return (
		<form onSubmit={submit} className="space-y-4" aria-label={accountTokensCreateForm()}>
			<TextField
				label={accountTokensName()}
				hint={accountTokensNameHint()}
				value={name}
				required
				maxLength={API_TOKEN_NAME_MAX_LENGTH}
				onChange={(event) => setName(event.target.value)}
			/>
			<fieldset>
				<legend className="mb-1.5 text-sm font-medium text-slate-800">
					{accountTokensScopes()}
				</legend>
				<div className="space-y-2">
					{API_TOKEN_SCOPES.map((scope) => (
						<label key={scope} className="flex items-start gap-2 text-sm text-slate-800">
							<input
								type="checkbox"
								className="mt-0.5 size-4 accent-accent-600"
								checked={scopes.includes(scope)}
								onChange={(event) => toggleScope(scope, event.target.checked)}
							/>
							<span>
								<span className="font-medium">{scope}</span>
								<span className="text-slate-600"> · {SCOPE_DESCRIPTIONS[scope]()}</span>
							</span>
						</label>
					))}
				</div>
			</fieldset>
			<div>
				<label
					htmlFor="api-token-expiry"
					className="mb-1.5 block text-sm font-medium text-slate-800"
				>
					{accountTokensExpiry()}
				</label>
				<select
					id="api-token-expiry"
					value={expiry}
					onChange={(event) => setExpiry(event.target.value)}
					className="block h-11 rounded-lg border-0 bg-white px-3 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset"
				>
					{API_TOKEN_LIFETIMES_DAYS.map((days) => (
						<option key={days} value={String(days)}>
							{accountTokensInDays({ count: days })}
						</option>
					))}
					<option value={NEVER}>{accountTokensNever()}</option>
				</select>
			</div>
			<AlertMessage message={create.error?.message ?? null} />
			<Button type="submit" isBusy={create.isPending} disabled={scopes.length === 0}>
				<KeyRound aria-hidden="true" className="size-4" />
				{accountTokensCreate()}
			</Button>
		</form>
	);
}

function TokenList({
	tokens,
	onRevoke,
}: {
	tokens: ApiToken[];
	onRevoke: (token: ApiToken) => void;
}) {
	if (tokens.length === 0) {
		return <p className="text-sm text-slate-600">{accountTokensNone()}</p>;
	}
	return (
		<ul className="divide-y divide-slate-200" aria-label={accountTokensList()}>
			{tokens.map((token) => (
				<li key={token.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
					<div className="min-w-0">
						<p className="text-sm font-medium break-words text-slate-900">{token.name}</p>
						<div className="mt-1 flex flex-wrap gap-1">
							{token.scopes.map((scope) => (
								<Badge key={scope}>{scope}</Badge>
							))}
						</div>
						<p className="mt-1 text-xs text-slate-600">
							{accountCreatedOn({ date: formatDateTime(token.createdAt) })} ·{" "}
							{token.lastUsedAt
								? accountTokensLastUsed({ date: formatDateTime(token.lastUsedAt) })
								: accountTokensNeverUsed()}{" "}
							· {describeExpiry(token)}
						</p>
					</div>
					<Button
						variant="secondary"
						aria-label={accountTokensRevokeNamed({ name: token.name })}
						onClick={() => onRevoke(token)}
					>
						{accountRevoke()}
					</Button>
				</li>
			))}
		</ul>
	);
}

/** The account page's API tokens: make one (shown once), see them, revoke one. */
export function ApiTokensSection() {
	const queryClient = useQueryClient();
	const tokens = useQuery({ queryKey: TOKENS_QUERY_KEY, queryFn: listApiTokens });
	const [created, setCreated] = useState<CreatedApiToken | null>(null);
	const [revoking, setRevoking] = useState<ApiToken | null>(null);
	const returnFocusRef = useRef<HTMLHeadingElement | null>(null);
	const refresh = () => queryClient.invalidateQueries({ queryKey: TOKENS_QUERY_KEY });
	const revoke = useMutation({ mutationFn: revokeApiToken, onSettled: refresh });
	const isAtLimit =
		tokens.data !== undefined && countActiveTokens(tokens.data) >= MAX_ACTIVE_API_TOKENS;
	const [beforeHeader = "", beforeReference = "", afterReference = ""] = splitAtElements(
		accountTokensDescription({
			header: ELEMENT_MARKER,
			limit: MAX_ACTIVE_API_TOKENS,
			reference: ELEMENT_MARKER,
		}),
	);

	return (
		<Section
			title={accountTokensTitle()}
			description={
				<>
					{beforeHeader}
					<code className="rounded bg-slate-100 px-1 py-0.5 text-xs">{AUTHORIZATION_HEADER}</code>
					{beforeReference}
					<a
						href="/api/docs"
						className="font-medium text-accent-700 underline-offset-4 hover:underline"
					>
						{accountTokensApiReference()}
					</a>
					{afterReference}
				</>
			}
		>
			<div className="space-y-6" ref={returnFocusRef} tabIndex={-1}>
				{created ? (
					<NewToken created={created} onDone={() => setCreated(null)} />
				) : isAtLimit ? (
					<p className="text-sm text-slate-700" role="status">
						{apiTokenLimitMessage()}
					</p>
				) : (
					<CreateTokenForm
						onCreated={(token) => {
							setCreated(token);
							void refresh();
						}}
					/>
				)}
				{tokens.isPending ? (
					<Spinner label={accountTokensLoading()} />
				) : tokens.isError ? (
					<AlertMessage message={tokens.error.message} />
				) : (
					<TokenList tokens={tokens.data} onRevoke={setRevoking} />
				)}
				<AlertMessage message={revoke.error?.message ?? null} />
			</div>
			<ConfirmDialog
				isOpen={revoking !== null}
				onClose={() => setRevoking(null)}
				returnFocusRef={returnFocusRef}
				icon={<KeyRound aria-hidden="true" className="size-5" />}
				tone="danger"
				title={accountTokensRevokeTitle({ name: revoking?.name ?? "" })}
				description={accountTokensRevokeDescription()}
				action={
					<AlertDialog.Action
						className={getButtonClassName({ variant: "danger" })}
						onClick={() => {
							if (revoking) revoke.mutate(revoking.id);
						}}
					>
						{accountRevoke()}
					</AlertDialog.Action>
				}
			/>
		</Section>
	);
}
